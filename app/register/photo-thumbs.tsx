'use client';
/** The photos waiting to be registered, each with Remove. */
import type { usePhotoTray } from './use-photo-tray';
import styles from './register.module.css';

type TrayPhoto = ReturnType<typeof usePhotoTray>['photos'][number];

export function PhotoThumbs({
  photos,
  disabled,
  onRemove,
}: {
  photos: readonly TrayPhoto[];
  disabled: boolean;
  onRemove: (id: number) => void;
}) {
  return (
    <>
      {photos.length === 0 ? (
        <p className="muted">No photos yet.</p>
      ) : (
        <ul className={styles.thumbs} data-testid="photo-list">
          {photos.map((p, i) => (
            <li key={p.id}>
              {/* biome-ignore lint/performance/noImgElement: a blob: URL of the user's own photo; next/image would only pass it through unoptimised. */}
              <img src={p.url} alt={`Face ${i + 1} (${p.source})`} />
              <button
                type="button"
                className="secondary"
                onClick={() => onRemove(p.id)}
                aria-label={`Remove photo ${i + 1}`}
                disabled={disabled}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
