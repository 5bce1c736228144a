'use client';
/**
 * One person in the memory bank: name, relationship, photo count and details; edit, add photos
 * (a photo that does not look like the person needs a second, explicit "add anyway"), see and
 * remove single faces, delete after an explicit confirmation. Buttons name the person.
 */
import { useRef, useState } from 'react';
import type { Person } from '@/lib/contracts/persons';
import { api } from '@/lib/browser/vigil-api';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { ErrorNotice } from '@/app/components/error-notice';
import { ConfirmStep } from './confirm-step';
import { PersonEditForm } from './person-edit-form';
import { PersonFaces } from './person-faces';
import { useAddPhotos } from './use-add-photos';
import styles from './people.module.css';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function PersonCard({
  person,
  onChanged,
  onDeleted,
}: {
  person: Person;
  onChanged: (p: Person) => void;
  onDeleted: (id: string, name: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<ExplainedError | undefined>();
  const [facesOpen, setFacesOpen] = useState(false);
  const [facesVersion, setFacesVersion] = useState(0);
  const fileRef = useRef<HTMLInputElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const id = person.person_id;
  const photos = useAddPhotos(person, setBusy, setStatus, (p) => {
    onChanged(p);
    setFacesVersion((v) => v + 1);
  });

  async function save(fields: { name: string; relationship: string }) {
    setBusy(true);
    setError(undefined);
    try {
      onChanged(await api.updatePerson(id, fields));
      setEditing(false);
      setStatus('Saved.');
    } catch (err) {
      setError(explainError(err));
    } finally {
      setBusy(false);
    }
  }

  function addPhotos(list: File[], confirmMismatch = false) {
    setError(undefined);
    void photos.addPhotos(list, confirmMismatch);
  }

  async function remove() {
    setBusy(true);
    setError(undefined);
    try {
      await api.deletePerson(id);
      onDeleted(id, person.name);
    } catch (err) {
      setError(explainError(err));
      setBusy(false);
    }
  }

  return (
    <li className={styles.card} data-testid="person" data-person-id={id} data-name={person.name} id={`person-${id}`}>
      {editing ? (
        <PersonEditForm person={person} busy={busy} onSave={(f) => void save(f)} onCancel={() => setEditing(false)} />
      ) : (
        <>
          <h2 className={styles.name} data-testid="person-name">
            {person.name}
          </h2>
          <p className={styles.meta}>
            <span data-testid="person-relationship">{person.relationship || <em>no relationship given</em>}</span> ·{' '}
            <span data-testid="photo-count">{plural(person.embedding_count, 'photo')}</span>
          </p>
          {Object.keys(person.metadata).length > 0 && (
            <dl className={styles.details}>
              {Object.entries(person.metadata).map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
                </div>
              ))}
            </dl>
          )}
          <div className={styles.actions}>
            <button
              type="button"
              className="secondary"
              data-testid="edit"
              aria-label={`Edit ${person.name}`}
              onClick={() => setEditing(true)}
              disabled={busy}
            >
              Edit
            </button>
            <button
              type="button"
              className="secondary"
              data-testid="add-photos-button"
              aria-label={`Add photos of ${person.name}`}
              onClick={() => fileRef.current?.click()}
              disabled={busy}
            >
              Add photos
            </button>
            <input
              ref={fileRef}
              type="file"
              accept="image/jpeg,image/png"
              multiple
              className="visually-hidden"
              tabIndex={-1}
              aria-label={`Photo files for ${person.name}`}
              data-testid="add-photos"
              onChange={(e) => {
                addPhotos(Array.from(e.target.files ?? []));
                e.target.value = '';
              }}
            />
            {!confirming && (
              <button
                type="button"
                className="danger"
                data-testid="delete"
                ref={deleteRef}
                aria-label={`Delete ${person.name}`}
                onClick={() => setConfirming(true)}
                disabled={busy}
              >
                Delete
              </button>
            )}
          </div>
          {confirming && (
            <ConfirmStep
              question={`Delete ${person.name} and all ${plural(person.embedding_count, 'face descriptor')}? This cannot be undone.`}
              confirmLabel={`Delete ${person.name}`}
              keepLabel={`Keep ${person.name}`}
              busy={busy}
              onConfirm={() => void remove()}
              onKeep={() => {
                setConfirming(false);
                // Back to the button that opened the question.
                requestAnimationFrame(() => deleteRef.current?.focus());
              }}
              confirmTestId="confirm-delete"
              keepTestId="keep-person"
            />
          )}
          <details
            className={styles.facesBox}
            onToggle={(e) => setFacesOpen((e.target as HTMLDetailsElement).open)}
            data-testid="faces-toggle"
          >
            <summary>
              Faces of {person.name} ({person.embedding_count})
            </summary>
            {facesOpen && <PersonFaces person={person} onChanged={onChanged} version={facesVersion} />}
          </details>
        </>
      )}
      <div aria-live="polite">
        {status && <p className="muted">{status}</p>}
        {error && <ErrorNotice error={error} />}
        {photos.problems.length > 0 && (
          <ErrorNotice items={photos.problems} testId="photo-errors">
            {photos.mismatched.length > 0 && (
              <button
                type="button"
                className="secondary"
                data-testid="add-anyway"
                disabled={busy}
                onClick={() => addPhotos(photos.mismatched, true)}
              >
                Add {photos.mismatched.length === 1 ? 'it' : `these ${photos.mismatched.length}`} to {person.name} anyway
              </button>
            )}
          </ErrorNotice>
        )}
      </div>
    </li>
  );
}
