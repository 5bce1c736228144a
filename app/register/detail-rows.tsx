'use client';
/** The optional key/value details of a registration (sent as `metadata`), one row each. */
import type { Dispatch, SetStateAction } from 'react';
import styles from './register.module.css';

export interface MetaRow {
  id: number;
  key: string;
  value: string;
}

let nextMetaId = 1;

export function DetailRows({ rows, onChange }: { rows: MetaRow[]; onChange: Dispatch<SetStateAction<MetaRow[]>> }) {
  return (
    <fieldset className={styles.meta}>
      <legend>Other details (optional)</legend>
      {rows.map((r, i) => (
        <div key={r.id} className="field-row">
          <div className="field">
            <label htmlFor={`meta-key-${r.id}`}>Detail {i + 1} name</label>
            <input
              id={`meta-key-${r.id}`}
              data-testid="meta-key"
              value={r.key}
              maxLength={100}
              onChange={(e) => onChange((m) => m.map((x) => (x.id === r.id ? { ...x, key: e.target.value } : x)))}
            />
          </div>
          <div className="field">
            <label htmlFor={`meta-value-${r.id}`}>Detail {i + 1} value</label>
            <input
              id={`meta-value-${r.id}`}
              data-testid="meta-value"
              value={r.value}
              maxLength={1000}
              onChange={(e) => onChange((m) => m.map((x) => (x.id === r.id ? { ...x, value: e.target.value } : x)))}
            />
          </div>
          <div className="field">
            <button
              type="button"
              className="secondary"
              onClick={() => onChange((m) => m.filter((x) => x.id !== r.id))}
              aria-label={`Remove detail ${i + 1}`}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      <button
        type="button"
        className="secondary"
        data-testid="meta-add"
        onClick={() => onChange((m) => [...m, { id: nextMetaId++, key: '', value: '' }])}
      >
        Add a detail
      </button>
    </fieldset>
  );
}
