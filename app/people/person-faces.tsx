'use client';
/**
 * One person's stored faces: a thumbnail when the server keeps photos (STORE_FACE_IMAGES), else a
 * placeholder; when each was added, the detector's confidence, and how far it lies from the
 * person's other faces. A face far from all the others is flagged in words, and any face but the
 * last can be removed after an explicit confirmation.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FaceList, Person } from '@/lib/contracts/persons';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { api } from '@/lib/browser/vigil-api';
import { ErrorNotice } from '@/app/components/error-notice';
import { ConfirmStep } from './confirm-step';
import { FaceThumbnail } from './face-thumbnail';
import styles from './people.module.css';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function PersonFaces({ person, onChanged, version }: { person: Person; onChanged: (p: Person) => void; version: number }) {
  const [list, setList] = useState<FaceList | undefined>();
  const [error, setError] = useState<ExplainedError | undefined>();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<string | undefined>();
  const statusRef = useRef<HTMLParagraphElement>(null);
  const removeRefs = useRef(new Map<string, HTMLButtonElement>());
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
      setConfirming(undefined);
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
              <FaceThumbnail personId={id} face={f} label={`Face ${i + 1} of ${person.name}`} />
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
              {confirming === f.face_id ? (
                <ConfirmStep
                  question={`Remove face ${i + 1} of ${person.name}? Its descriptor${f.photo_stored ? ' and photo are' : ' is'} erased; this cannot be undone.`}
                  confirmLabel={`Remove face ${i + 1}`}
                  keepLabel={`Keep face ${i + 1} of ${person.name}`}
                  busy={busy}
                  onConfirm={() => void remove(f.face_id, i + 1)}
                  onKeep={() => {
                    setConfirming(undefined);
                    requestAnimationFrame(() => removeRefs.current.get(f.face_id)?.focus());
                  }}
                  confirmTestId="confirm-remove-face"
                  keepTestId="keep-face"
                />
              ) : (
                <button
                  type="button"
                  className="secondary"
                  data-testid="remove-face"
                  ref={(el) => {
                    if (el) removeRefs.current.set(f.face_id, el);
                    else removeRefs.current.delete(f.face_id);
                  }}
                  aria-label={`Remove face ${i + 1} of ${person.name}`}
                  disabled={busy || list.faces.length === 1}
                  onClick={() => setConfirming(f.face_id)}
                >
                  Remove
                </button>
              )}
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
