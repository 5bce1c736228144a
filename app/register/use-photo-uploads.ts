'use client';
/**
 * Uploaded photos are checked in the browser (bytes, decoding, one usable face, not nearly the same
 * as a photo already in the tray) before they join the tray; each refused file is listed with its reason. If the detector cannot load, the server checks.
 */
import { useState } from 'react';
import { checkPhotoFile, signatureOfPhoto } from '@/lib/browser/check-photo';
import type { FaceGuide } from '@/lib/browser/face-guide';
import { MAX_PHOTOS, nearlySameProblem } from '@/lib/browser/register-with-photos';
import type { FileProblem } from './registration-problems';
import type { usePhotoTray } from './use-photo-tray';

export function usePhotoUploads(tray: ReturnType<typeof usePhotoTray>, ensureGuide: () => Promise<FaceGuide>) {
  const [checking, setChecking] = useState('');
  const [fileProblems, setFileProblems] = useState<FileProblem[]>([]);
  const { photos } = tray;

  /** Each chosen file is checked here (bytes, decoding, a face) before it can be uploaded. */
  async function check(files: FileList) {
    const room = MAX_PHOTOS - photos.length;
    const list = Array.from(files);
    const problems: FileProblem[] = [];
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      if (i >= room) {
        problems.push({ label: f.name, error: { summary: `not added: at most ${MAX_PHOTOS} photos per registration.` } });
        continue;
      }
      setChecking(`Checking photo ${i + 1} of ${Math.min(list.length, room)}…`);
      try {
        const verdict = await checkPhotoFile(f, ensureGuide);
        if (!verdict.ok) {
          problems.push({ label: f.name, error: { summary: `Not added: ${verdict.reason}.` } });
          continue;
        }
        const signature = await signatureOfPhoto(f);
        const same = tray.repeats(signature);
        if (same > 0) problems.push({ label: f.name, error: { summary: nearlySameProblem(same, 'upload') } });
        else tray.add(f, 'upload', f.name, signature);
      } catch (err) {
        // The detector could not load: the server checks the photo instead.
        tray.add(f, 'upload', f.name);
        console.warn(`photo check skipped: ${(err as Error).message}`);
      }
    }
    setChecking('');
    setFileProblems(problems);
  }

  return { check, checking, fileProblems, setFileProblems };
}
