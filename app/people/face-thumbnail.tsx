/**
 * A stored face's photo, small, so a moderator sees which face a Remove takes away. Only when the
 * server keeps photos (STORE_FACE_IMAGES, `photo_stored`); otherwise a neutral placeholder that says so.
 * The image is fetched with the page's own credentials (session cookie) and never cached.
 */
import type { FaceList } from '@/lib/contracts/persons';
import { faceImageUrl } from '@/lib/browser/vigil-api';
import styles from './people.module.css';

export function FaceThumbnail({ personId, face, label }: { personId: string; face: FaceList['faces'][number]; label: string }) {
  if (!face.photo_stored)
    return (
      <span className={styles.thumb} data-testid="face-placeholder">
        No photo stored
      </span>
    );
  return (
    // biome-ignore lint/performance/noImgElement: a private, uncached API image; next/image would proxy and cache it.
    <img
      className={styles.thumb}
      src={faceImageUrl(personId, face.face_id)}
      alt={label}
      width={96}
      height={96}
      data-testid="face-thumbnail"
    />
  );
}
