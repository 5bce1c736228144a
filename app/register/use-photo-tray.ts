'use client';
/**
 * The photos waiting to be registered: each with an object URL for its thumbnail and its likeness
 * signature, at most MAX_PHOTOS, every URL revoked when its photo leaves the tray or the page unmounts.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { nearlyRepeats } from '@/lib/browser/photo-likeness';
import { MAX_PHOTOS } from '@/lib/browser/register-with-photos';

interface TrayPhoto {
  id: number;
  blob: Blob;
  url: string;
  source: 'camera' | 'upload';
  name: string;
  /** Its likeness signature (lib/browser/photo-likeness.ts): a near-identical photo is refused. */
  signature?: Float32Array;
}

let nextId = 1;

export function usePhotoTray() {
  const [photos, setPhotos] = useState<TrayPhoto[]>([]);

  // Free the object URLs of the thumbnails.
  const photosRef = useRef(photos);
  photosRef.current = photos;
  useEffect(() => () => photosRef.current.forEach((p) => URL.revokeObjectURL(p.url)), []);

  const add = useCallback((blob: Blob, source: TrayPhoto['source'], name: string, signature?: Float32Array) => {
    const photo = { id: nextId++, blob, url: URL.createObjectURL(blob), source, name, signature };
    // The ref is ahead of the next render, so photos added in one go are compared with each other too.
    if (photosRef.current.length < MAX_PHOTOS) photosRef.current = [...photosRef.current, photo];
    setPhotos((ps) => {
      if (ps.length >= MAX_PHOTOS) {
        URL.revokeObjectURL(photo.url);
        return ps;
      }
      return [...ps, photo];
    });
  }, []);

  /** Which photo in the tray `signature` nearly repeats (1-based), or 0 when none does. */
  const repeats = useCallback((signature: Float32Array | undefined) => {
    if (!signature) return 0;
    return (
      nearlyRepeats(
        signature,
        photosRef.current.map((p) => p.signature),
      ) + 1
    );
  }, []);

  const remove = useCallback((id: number) => {
    setPhotos((ps) => {
      const p = ps.find((x) => x.id === id);
      if (p) URL.revokeObjectURL(p.url);
      return ps.filter((x) => x.id !== id);
    });
  }, []);

  const clear = useCallback(() => {
    photosRef.current.forEach((p) => URL.revokeObjectURL(p.url));
    setPhotos([]);
  }, []);

  return { photos, add, repeats, remove, clear, full: photos.length >= MAX_PHOTOS };
}
