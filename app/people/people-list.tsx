'use client';
/**
 * Everyone in the memory bank with photo counts; edit name and relationship, add photos (a photo
 * that does not look like the person needs a second, explicit "add anyway"), see and remove single
 * faces, delete with confirmation. Buttons name the person; focus goes somewhere sensible after a removal.
 */
import Link from 'next/link';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Person } from '@/lib/contracts/persons';
import { api, ApiError } from '@/lib/browser/vigil-api';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { ErrorNotice } from '@/app/components/error-notice';
import { PersonFaces } from './person-faces';
import styles from './people.module.css';

const PAGE = 100;

function PersonCard({
  person,
  onChanged,
  onDeleted,
}: {
  person: Person;
  onChanged: (p: Person) => void;
  onDeleted: (id: string, name: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(person.name);
  const [relationship, setRelationship] = useState(person.relationship);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<ExplainedError | undefined>();
  const [photoProblems, setPhotoProblems] = useState<{ label: string; error: ExplainedError }[]>([]);
  const [mismatched, setMismatched] = useState<File[]>([]);
  const [facesOpen, setFacesOpen] = useState(false);
  const [facesVersion, setFacesVersion] = useState(0);
  const fileRef = useRef<HTMLInputElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const id = person.person_id;

  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  async function save() {
    setBusy(true);
    setError(undefined);
    try {
      const p = await api.updatePerson(id, { name: name.trim(), relationship: relationship.trim() });
      onChanged(p);
      setEditing(false);
      setStatus('Saved.');
    } catch (err) {
      setError(explainError(err));
    } finally {
      setBusy(false);
    }
  }

  async function addPhotos(list: File[], confirmMismatch = false) {
    if (!list.length) return;
    setBusy(true);
    setError(undefined);
    setPhotoProblems([]);
    setMismatched([]);
    const problems: { label: string; error: ExplainedError }[] = [];
    const unlike: File[] = [];
    let latest: Person | undefined;
    for (let i = 0; i < list.length; i++) {
      setStatus(`Adding photo ${i + 1} of ${list.length}…`);
      try {
        latest = await api.addFace(id, list[i]!, list[i]!.name, { confirmMismatch });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'FACE_MISMATCH') {
          unlike.push(list[i]!);
          problems.push({
            label: list[i]!.name,
            error: { summary: `Not added: this face does not look like ${person.name}.`, code: err.code, detail: err.message },
          });
        } else {
          problems.push({ label: list[i]!.name, error: explainError(err) });
        }
      }
    }
    if (latest) {
      onChanged(latest);
      setFacesVersion((v) => v + 1);
    }
    setStatus(`${list.length - problems.length} of ${list.length} photo${list.length === 1 ? '' : 's'} added.`);
    setPhotoProblems(problems);
    setMismatched(unlike);
    setBusy(false);
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
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="field">
            <label htmlFor={`name-${id}`}>Name</label>
            <input
              id={`name-${id}`}
              data-testid="edit-name"
              required
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
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
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setEditing(false);
                setName(person.name);
                setRelationship(person.relationship);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <h2 className={styles.name} data-testid="person-name">
            {person.name}
          </h2>
          <p className={styles.meta}>
            <span data-testid="person-relationship">{person.relationship || <em>no relationship given</em>}</span> ·{' '}
            <span data-testid="photo-count">
              {person.embedding_count} photo{person.embedding_count === 1 ? '' : 's'}
            </span>
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
                void addPhotos(Array.from(e.target.files ?? []));
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
            <div className={`alert alert-error ${styles.confirm}`} role="alertdialog" aria-labelledby={`confirm-${id}`}>
              <p id={`confirm-${id}`}>
                Delete {person.name} and all {person.embedding_count} face descriptor{person.embedding_count === 1 ? '' : 's'}? This cannot
                be undone.
              </p>
              <div className={styles.actions}>
                <button type="button" className="danger" data-testid="confirm-delete" onClick={() => void remove()} disabled={busy}>
                  Delete {person.name}
                </button>
                <button
                  type="button"
                  ref={cancelRef}
                  className="secondary"
                  aria-label={`Keep ${person.name}`}
                  onClick={() => {
                    setConfirming(false);
                    // Back to the button that opened the question.
                    requestAnimationFrame(() => deleteRef.current?.focus());
                  }}
                >
                  Keep
                </button>
              </div>
            </div>
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
        {photoProblems.length > 0 && (
          <ErrorNotice items={photoProblems} testId="photo-errors">
            {mismatched.length > 0 && (
              <button
                type="button"
                className="secondary"
                data-testid="add-anyway"
                disabled={busy}
                onClick={() => void addPhotos(mismatched, true)}
              >
                Add {mismatched.length === 1 ? 'it' : `these ${mismatched.length}`} to {person.name} anyway
              </button>
            )}
          </ErrorNotice>
        )}
      </div>
    </li>
  );
}

export function PeopleList() {
  const [people, setPeople] = useState<Person[] | undefined>();
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<ExplainedError | undefined>();
  const [message, setMessage] = useState('');
  const messageRef = useRef<HTMLParagraphElement>(null);
  const [focusMessage, setFocusMessage] = useState(0);
  useEffect(() => {
    // After a delete the focused button is gone: move to the message that says what happened.
    if (focusMessage) messageRef.current?.focus();
  }, [focusMessage]);

  const load = useCallback(async () => {
    setError(undefined);
    try {
      const all: Person[] = [];
      let t = 0;
      for (let offset = 0; ; offset += PAGE) {
        const page = await api.listPersons(PAGE, offset);
        all.push(...page.persons);
        t = page.total;
        if (all.length >= t || page.persons.length === 0) break;
      }
      setPeople(all);
      setTotal(t);
    } catch (err) {
      setError(explainError(err));
      setPeople((p) => p ?? []);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <main>
      <div className={styles.head}>
        <h1>People</h1>
        <Link className="button" href="/register">
          Register someone
        </Link>
      </div>
      <div aria-live="polite">
        {message && (
          <p className="alert alert-ok" data-testid="people-message" tabIndex={-1} ref={messageRef}>
            {message}
          </p>
        )}
        {error && (
          <ErrorNotice error={error}>
            <button type="button" className="secondary" onClick={() => void load()}>
              Retry
            </button>
          </ErrorNotice>
        )}
        <p className="muted" data-testid="people-count" data-loaded={people !== undefined}>
          {people === undefined ? 'Loading…' : `${total} ${total === 1 ? 'person' : 'people'} registered.`}
        </p>
      </div>
      {people && people.length === 0 && !error && (
        <p>
          Nobody is registered yet. <Link href="/register">Register someone</Link>.
        </p>
      )}
      <ul className={styles.grid} data-testid="people-list">
        {people?.map((p) => (
          <PersonCard
            key={p.person_id}
            person={p}
            onChanged={(np) => setPeople((ps) => ps?.map((x) => (x.person_id === np.person_id ? np : x)))}
            onDeleted={(id, name) => {
              setPeople((ps) => ps?.filter((x) => x.person_id !== id));
              setTotal((t) => t - 1);
              setMessage(`${name} was deleted.`);
              setFocusMessage((n) => n + 1);
            }}
          />
        ))}
      </ul>
    </main>
  );
}
