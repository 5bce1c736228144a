'use client';
/**
 * The camera preview with the face overlay, what to do when the camera is unavailable, and the
 * capture button right under the preview with what it waits for. Advisory checks (antispoof,
 * liveness) are never waited for: a photo held up to the camera passes them anyway.
 */
import type { RefObject } from 'react';
import type { Check } from '@/lib/browser/face-quality';
import { MAX_PHOTOS } from '@/lib/browser/register-with-photos';
import type { useCamera } from '@/lib/browser/use-camera';
import styles from './register.module.css';

interface CameraStageProps {
  camera: ReturnType<typeof useCamera>;
  overlayRef: RefObject<HTMLCanvasElement | null>;
  checks: readonly Check[];
  ready: boolean;
  full: boolean;
  finished: boolean;
  /** Photos in the tray. */
  count: number;
  onCapture: () => void;
}

export function CameraStage({ camera, overlayRef, checks, ready, full, finished, count, onCapture }: CameraStageProps) {
  const cameraOn = camera.status === 'live';
  const cameraFailed = camera.status === 'error';
  const failing = checks.filter((c) => !c.ok && !c.advisory);
  return (
    <>
      <div className={styles.stage} hidden={cameraFailed}>
        <video ref={camera.videoRef} className={styles.video} data-testid="camera-video" aria-label="Camera preview" muted playsInline />
        {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a canvas without tabindex is not focusable (the rule counts every canvas); the overlay only repeats what the text beside it says. */}
        <canvas ref={overlayRef} className={styles.overlay} aria-hidden="true" data-testid="face-overlay" />
      </div>
      {cameraFailed && (
        <div className="alert alert-warn" role="alert" data-testid="camera-error" data-reason={camera.error?.reason}>
          <p data-testid="camera-error-text">{camera.error?.message} Use the photo upload below.</p>
          {camera.error?.reason !== 'unsupported' && (
            <button type="button" className="secondary" data-testid="camera-retry" onClick={() => void camera.start()}>
              Try again
            </button>
          )}
        </div>
      )}
      {/* Right under the preview: visible without scrolling on a phone and on a 1366×768 laptop. */}
      {cameraOn && (
        <div className={styles.captureRow}>
          <button
            type="button"
            data-testid="capture"
            onClick={onCapture}
            disabled={!ready || full || finished}
            aria-describedby="capture-hint"
          >
            Capture photo ({count}/{MAX_PHOTOS})
          </button>
          <span id="capture-hint" className="hint">
            {count >= MAX_PHOTOS
              ? 'Maximum reached.'
              : ready
                ? 'Ready.'
                : failing.length
                  ? `Waiting for: ${failing.map((c) => c.label.toLowerCase()).join(', ')}.`
                  : 'Waiting for the face guidance.'}
          </span>
        </div>
      )}
    </>
  );
}
