'use client';
/**
 * Recognition: webcam frames (or an uploaded photo) sent to POST /api/v1/recognize on demand or
 * every few seconds; names and relationships are drawn over the faces, "unknown" for strangers.
 */
import { useEffect, useRef, useState } from 'react';
import type { RecognizeResult } from '@/lib/contracts/persons';
import { captureFrame } from '@/lib/browser/camera';
import { useCamera } from '@/lib/browser/use-camera';
import { api } from '@/lib/browser/vigil-api';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { layoutLabels } from '@/lib/browser/label-layout';
import { ErrorNotice } from '@/app/components/error-notice';
import styles from './recognize.module.css';

const AUTO_EVERY_MS = 3000;
type Face = RecognizeResult['faces'][number];

/** "Name · relationship": a separator, not brackets, so a relationship like "friend (school)" never nests. */
const labelOf = (f: Face) => (f.match && f.name ? (f.relationship ? `${f.name} · ${f.relationship}` : f.name) : 'Unknown');

function drawFaces(canvas: HTMLCanvasElement, width: number, height: number, faces: Face[]) {
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, width, height);
  const font = Math.max(14, Math.round(width / 40));
  const pad = Math.round(font / 3);
  ctx.font = `600 ${font}px system-ui, sans-serif`;
  ctx.textBaseline = 'middle';
  for (const f of faces) {
    ctx.strokeStyle = f.match && f.name ? '#22c55e' : '#f59e0b';
    ctx.lineWidth = Math.max(3, width / 200);
    ctx.strokeRect(f.box.x, f.box.y, f.box.width, f.box.height);
  }
  // Labels after all boxes, laid out so each stays inside the image and apart from the others.
  const texts = faces.map(labelOf);
  const rects = layoutLabels(
    faces.map((f) => f.box),
    texts.map((t) => ({ width: Math.ceil(ctx.measureText(t).width) + 2 * pad, height: font + 2 * pad })),
    { width, height },
  );
  rects.forEach((r, i) => {
    const known = faces[i]!.match && !!faces[i]!.name;
    ctx.fillStyle = known ? '#14532d' : '#78350f';
    ctx.fillRect(r.x, r.y, r.width, r.height);
    ctx.fillStyle = '#ffffff';
    ctx.fillText(texts[i]!, r.x + pad, r.y + r.height / 2, r.width - 2 * pad); // maxWidth squeezes a label narrowed to the image
  });
  // What was drawn, for tests and for debugging (the canvas itself is aria-hidden; the list below names everyone).
  canvas.dataset.labels = JSON.stringify(rects.map((r, i) => ({ ...r, text: texts[i] })));
}

export function RecognizeFaces() {
  const camera = useCamera();
  const { videoRef } = camera;
  const cameraOn = camera.status === 'live';
  const cameraFailed = camera.status === 'error';
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const photoOverlayRef = useRef<HTMLCanvasElement>(null);
  const busyRef = useRef(false);
  const [auto, setAuto] = useState(false);
  const [busy, setBusy] = useState(false);
  const [faces, setFaces] = useState<Face[] | undefined>();
  const [photo, setPhoto] = useState<{ url: string; width: number; height: number } | undefined>();
  const [error, setError] = useState<ExplainedError | undefined>();
  const resultsRef = useRef<HTMLElement>(null);
  const [lastMs, setLastMs] = useState<number | undefined>();

  async function recognizeBlob(blob: Blob, draw: (faces: Face[]) => void) {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setError(undefined);
    const t0 = performance.now();
    try {
      const r = await api.recognize(blob);
      setFaces(r.faces);
      setLastMs(Math.round(performance.now() - t0));
      draw(r.faces);
    } catch (err) {
      // The last answer was about another picture: it must not stand beside this error as if current.
      setFaces(undefined);
      setLastMs(undefined);
      setError(explainError(err));
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  async function recognizeFrame() {
    const video = videoRef.current;
    if (!video || !cameraOn) return;
    setPhoto(undefined);
    try {
      const blob = await captureFrame(video, 0.85);
      const { videoWidth: w, videoHeight: h } = video;
      await recognizeBlob(blob, (fs) => overlayRef.current && drawFaces(overlayRef.current, w, h, fs));
    } catch (err) {
      setError({ summary: `The camera frame could not be read: ${(err as Error).message}` });
    }
  }

  // On a phone the results sit below the picture: bring them into view when they arrive (not in
  // automatic mode, which would keep pulling the page).
  useEffect(() => {
    if (faces === undefined && !error) return;
    const el = resultsRef.current;
    if (!el || auto) return;
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight - 80) el.scrollIntoView({ block: 'start' });
  }, [faces, error, auto]);

  // Auto mode: one request at a time, every few seconds.
  const recognizeRef = useRef(recognizeFrame);
  recognizeRef.current = recognizeFrame;
  useEffect(() => {
    if (!auto || !cameraOn) return;
    void recognizeRef.current();
    const timer = setInterval(() => void recognizeRef.current(), AUTO_EVERY_MS);
    return () => clearInterval(timer);
  }, [auto, cameraOn]);

  async function onFile(file: File | undefined) {
    if (!file) return;
    setAuto(false);
    // A new attempt: the result and the photo of the last one go, whatever this one gives.
    setFaces(undefined);
    setLastMs(undefined);
    setError(undefined);
    if (photo) URL.revokeObjectURL(photo.url);
    setPhoto(undefined);
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.src = url;
    try {
      await img.decode();
    } catch {
      URL.revokeObjectURL(url);
      setError({ summary: `${file.name} could not be opened as an image: choose a JPEG or PNG photo.` });
      return;
    }
    const size = { width: img.naturalWidth, height: img.naturalHeight };
    setPhoto({ url, ...size });
    await recognizeBlob(file, (fs) => photoOverlayRef.current && drawFaces(photoOverlayRef.current, size.width, size.height, fs));
  }

  return (
    <main>
      <h1>Recognize</h1>
      <p className="lede">Frames go to the server only when you press Recognize or turn on automatic mode.</p>
      <div className={styles.layout}>
        <section aria-labelledby="rc-camera" className={styles.column}>
          <h2 id="rc-camera" className="visually-hidden">
            Camera
          </h2>
          <div className={styles.stage} hidden={cameraFailed || !!photo}>
            <video ref={videoRef} className={styles.media} data-testid="camera-video" aria-label="Camera preview" muted playsInline />
            {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a canvas without tabindex is not focusable (the rule counts every canvas); the overlay only repeats what the text beside it says. */}
            <canvas ref={overlayRef} className={styles.media} aria-hidden="true" data-testid="recognize-overlay" />
          </div>
          {photo && (
            <div className={styles.stage} style={{ aspectRatio: `${photo.width} / ${photo.height}` }}>
              {/* biome-ignore lint/performance/noImgElement: a blob: URL of the user's own photo; next/image would only pass it through unoptimised. */}
              <img src={photo.url} alt="Uploaded for recognition" className={styles.media} />
              {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a canvas without tabindex is not focusable (the rule counts every canvas); the overlay only repeats what the text beside it says. */}
              <canvas ref={photoOverlayRef} className={styles.media} aria-hidden="true" data-testid="photo-overlay" />
            </div>
          )}
          {cameraFailed && (
            <div className="alert alert-warn" role="alert" data-testid="camera-error" data-reason={camera.error?.reason}>
              <p data-testid="camera-error-text">{camera.error?.message} You can upload a photo instead.</p>
              {camera.error?.reason !== 'unsupported' && (
                <button type="button" className="secondary" data-testid="camera-retry" onClick={() => void camera.start()}>
                  Try again
                </button>
              )}
            </div>
          )}
          <div className="field-row">
            {cameraOn && (
              <>
                <button type="button" data-testid="recognize-now" onClick={() => void recognizeFrame()} disabled={busy}>
                  {busy ? 'Recognizing…' : 'Recognize now'}
                </button>
                <label className={styles.toggle}>
                  <input type="checkbox" data-testid="recognize-auto" checked={auto} onChange={(e) => setAuto(e.target.checked)} /> Every{' '}
                  {AUTO_EVERY_MS / 1000} seconds
                </label>
                {photo && (
                  <button type="button" className="secondary" onClick={() => setPhoto(undefined)}>
                    Back to the camera
                  </button>
                )}
              </>
            )}
          </div>
          <div className="field">
            <label htmlFor="recognize-upload">Recognize an uploaded photo (JPEG or PNG)</label>
            <input
              id="recognize-upload"
              data-testid="recognize-upload"
              type="file"
              accept="image/jpeg,image/png"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
          </div>
        </section>
        <section aria-labelledby="rc-results" className={styles.column} ref={resultsRef} data-testid="recognize-section">
          <h2 id="rc-results">Who is there</h2>
          <div aria-live="polite" data-testid="recognize-results" data-count={faces?.length ?? -1}>
            {error && <ErrorNotice error={error} testId="recognize-error" />}
            {faces === undefined ? (
              <p className="muted">No recognition yet.</p>
            ) : faces.length === 0 ? (
              <p>No face in view.</p>
            ) : (
              <ul className={styles.results}>
                {faces.map((f, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the faces of one recognition have no ids, and each recognition replaces the whole list.
                  <li key={i} data-testid="recognized-face" data-match={f.match} data-person-id={f.person_id ?? ''}>
                    <strong>{labelOf(f)}</strong> <span className="muted">· similarity {f.similarity.toFixed(2)}</span>
                  </li>
                ))}
              </ul>
            )}
            {lastMs !== undefined && <p className="muted">Answered in {lastMs} ms.</p>}
          </div>
        </section>
      </div>
    </main>
  );
}
