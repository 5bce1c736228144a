'use client';
/**
 * Adding photos to a person one by one: each refused file is listed with its reason, and the ones
 * refused as FACE_MISMATCH are kept so the operator can add them anyway, on purpose.
 */
import { useState } from 'react';
import type { Person } from '@/lib/contracts/persons';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { api, ApiError } from '@/lib/browser/vigil-api';

export type PhotoProblem = { label: string; error: ExplainedError };

export function useAddPhotos(person: Person, setBusy: (b: boolean) => void, setStatus: (s: string) => void, onAdded: (p: Person) => void) {
  const [problems, setProblems] = useState<PhotoProblem[]>([]);
  const [mismatched, setMismatched] = useState<File[]>([]);

  async function addPhotos(list: File[], confirmMismatch = false) {
    if (!list.length) return;
    setBusy(true);
    setProblems([]);
    setMismatched([]);
    const found: PhotoProblem[] = [];
    const unlike: File[] = [];
    let latest: Person | undefined;
    for (let i = 0; i < list.length; i++) {
      const file = list[i]!;
      setStatus(`Adding photo ${i + 1} of ${list.length}…`);
      try {
        latest = await api.addFace(person.person_id, file, file.name, { confirmMismatch });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'FACE_MISMATCH') {
          unlike.push(file);
          found.push({
            label: file.name,
            error: { summary: `Not added: this face does not look like ${person.name}.`, code: err.code, detail: err.message },
          });
        } else {
          found.push({ label: file.name, error: explainError(err) });
        }
      }
    }
    if (latest) onAdded(latest);
    setStatus(`${list.length - found.length} of ${list.length} photo${list.length === 1 ? '' : 's'} added.`);
    setProblems(found);
    setMismatched(unlike);
    setBusy(false);
  }

  return { addPhotos, problems, mismatched };
}
