'use client';
/** Renaming a person and editing the relationship, inside their card. */
import { useState } from 'react';
import type { Person } from '@/lib/contracts/persons';
import styles from './people.module.css';

export function PersonEditForm({
  person,
  busy,
  onSave,
  onCancel,
}: {
  person: Person;
  busy: boolean;
  onSave: (fields: { name: string; relationship: string }) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(person.name);
  const [relationship, setRelationship] = useState(person.relationship);
  const id = person.person_id;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ name: name.trim(), relationship: relationship.trim() });
      }}
    >
      <div className="field">
        <label htmlFor={`name-${id}`}>Name</label>
        <input id={`name-${id}`} data-testid="edit-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`rel-${id}`}>Relationship</label>
        <input
          id={`rel-${id}`}
          data-testid="edit-relationship"
          maxLength={100}
          value={relationship}
          onChange={(e) => setRelationship(e.target.value)}
        />
      </div>
      <div className={styles.actions}>
        <button type="submit" data-testid="save" disabled={busy || !name.trim()}>
          Save
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
