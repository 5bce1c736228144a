'use client';
/**
 * One person's stored faces, without photos (only descriptors are kept): when each was added,
 * the detector's confidence, and how far it lies from the person's other faces. A face far from
 * all the others is flagged in words, and any face but the last can be removed.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FaceList, Person } from '@/lib/contracts/persons';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { api } from '@/lib/browser/vigil-api';
import { ErrorNotice } from '@/app/components/error-notice';
import styles from './people.module.css';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function PersonFaces({ person, onChanged, version }: { person: Person; onChanged: (p: Person) => void; version: number }) {
  const [list, setList] = useState<FaceList | undefined>();
  const [error, setError] = useState<ExplainedError | undefined>();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const id = person.person_id;

  const load = useCallback(async () => {
    try {
      setList(await api.listFaces(id));
    } catch (err) {
      setError(explainError(err));
    }
  }, [id]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is a refetch trigger (the parent bumps it after a change).
  useEffect(() => {
    void load();
  }, [load, version]);

  async function remove(faceId: string, n: number) {
    setBusy(true);
    setError(undefined);
    try {
      await api.deleteFace(id, faceId);
      setStatus(`Face ${n} of ${person.name} was removed.`);
      onChanged(await api.getPerson(id));
      await load();
      // The button that had focus is gone: keep the keyboard user in this card, on the outcome.
      statusRef.current?.focus();
    } catch (err) {
      setError(explainError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.faces} data-testid="faces">
      {list === undefined && !error && <p className="muted">Loading faces…</p>}
      {list && (
        <ol className={styles.faceList} data-testid="face-list" aria-label={`Stored faces of ${person.name}`}>
          {list.faces.map((f, i) => (
            <li key={f.face_id} data-testid="face" data-face-id={f.face_id} data-outlier={f.outlier}>
              <span>
                <strong>Face {i + 1}</strong>, added {when(f.created_at)}. Detector confidence {f.quality.toFixed(2)}.{' '}
                {f.nearest_distance === null
                  ? 'The only face: nothing to compare with.'
                  : `Distance to the closest other face ${f.nearest_distance.toFixed(2)} (mean ${f.mean_distance!.toFixed(2)}).`}
              </span>
              {f.outlier && (
                <span className={styles.outlier} data-testid="face-outlier">
                  ⚠ Looks like someone else: farther than {list.mismatch_distance} from all other faces.
                  {f.mismatch_confirmed ? ' It was added over a mismatch warning.' : ''}
                </span>
              )}
              <button
                type="button"
                className="secondary"
                data-testid="remove-face"
                aria-label={`Remove face ${i + 1} of ${person.name}`}
                disabled={busy || list.faces.length === 1}
                onClick={() => void remove(f.face_id, i + 1)}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      {list?.faces.length === 1 && (
        <p className="hint">The only face cannot be removed: add another photo first, or delete {person.name}.</p>
      )}
      <p className="muted" data-testid="faces-status" tabIndex={-1} ref={statusRef} aria-live="polite">
        {status}
      </p>
      {error && <ErrorNotice error={error} testId="faces-error" />}
    </div>
  );
}
