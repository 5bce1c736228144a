'use client';
/**
 * The photos waiting to be registered: each with an object URL for its thumbnail, at most
 * MAX_PHOTOS, every URL revoked when its photo leaves the tray or the page unmounts.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_PHOTOS } from '@/lib/browser/register-with-photos';

interface TrayPhoto {
  id: number;
  blob: Blob;
  url: string;
  source: 'camera' | 'upload';
  name: string;
}

let nextId = 1;

export function usePhotoTray() {
  const [photos, setPhotos] = useState<TrayPhoto[]>([]);

  // Free the object URLs of the thumbnails.
  const photosRef = useRef(photos);
  photosRef.current = photos;
  useEffect(() => () => photosRef.current.forEach((p) => URL.revokeObjectURL(p.url)), []);

  const add = useCallback((blob: Blob, source: TrayPhoto['source'], name: string) => {
    setPhotos((ps) => (ps.length >= MAX_PHOTOS ? ps : [...ps, { id: nextId++, blob, url: URL.createObjectURL(blob), source, name }]));
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

  return { photos, add, remove, clear, full: photos.length >= MAX_PHOTOS };
}
