'use client';
/**
 * Webcam registration: a live preview with a face overlay computed in the browser (Human), guidance
 * that gates the capture button, 3–5 captured photos, then POST /api/v1/register with the first
 * and POST /api/v1/persons/{id}/faces for the rest. Without a camera (or permission) the same
 * form takes uploaded photos.
 */
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import type { Person } from '@/lib/contracts/persons';
import { captureFrame } from '@/lib/browser/camera';
import { loadFaceGuide, type FaceGuide } from '@/lib/browser/face-guide';
import { allPass, evaluateFrame, type Check, type GuideFace } from '@/lib/browser/face-quality';
import { useCamera } from '@/lib/browser/use-camera';
import { api, ApiError, describeError } from '@/lib/browser/vigil-api';
import styles from './register.module.css';

const MIN_PHOTOS = 3;
const MAX_PHOTOS = 5;
/** Pause between guidance frames: a modest rate keeps the page responsive on slow machines. */
const GUIDE_INTERVAL_MS = 250;

interface Photo {
  id: number;
  blob: Blob;
  url: string;
  source: 'camera' | 'upload';
  name: string;
}
interface MetaRow {
  id: number;
  key: string;
  value: string;
}
type StepResult = { photo: number; ok: boolean; message: string };

let nextId = 1;

function drawOverlay(canvas: HTMLCanvasElement, video: HTMLVideoElement, faces: GuideFace[], ready: boolean) {
  const w = video.videoWidth;
  const h = video.videoHeight;
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, w, h);
  // Target area: the middle of the frame.
  ctx.setLineDash([8, 8]);
  ctx.strokeStyle = 'rgba(255,255,255,0.7)';
  ctx.lineWidth = Math.max(2, w / 320);
  ctx.beginPath();
  ctx.ellipse(w / 2, h / 2, w * 0.2, h * 0.36, 0, 0, Math.PI * 2);
  ctx.stroke();
  ctx.setLineDash([]);
  for (const f of faces) {
    ctx.strokeStyle = ready ? '#22c55e' : '#f59e0b';
    ctx.lineWidth = Math.max(3, w / 200);
    ctx.strokeRect(...f.box);
  }
}

export function RegisterPerson() {
  const camera = useCamera();
  const { videoRef } = camera;
  const cameraOn = camera.status === 'live';
  const cameraFailed = camera.status === 'error';
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const guideRef = useRef<FaceGuide | null>(null);
  const [guideMessage, setGuideMessage] = useState('Loading face guidance…');
  const guideStatus = camera.status === 'starting' ? 'Starting the camera…' : cameraOn ? guideMessage : '';
  const [guideInfo, setGuideInfo] = useState<{ backend: string; loadMs: number; ms?: number } | undefined>();
  const [checks, setChecks] = useState<Check[]>([]);
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [name, setName] = useState('');
  const [relationship, setRelationship] = useState('');
  const [meta, setMeta] = useState<MetaRow[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number; label: string } | undefined>();
  const [steps, setSteps] = useState<StepResult[]>([]);
  const [result, setResult] = useState<Person | undefined>();
  const [error, setError] = useState('');
  const [duplicateOf, setDuplicateOf] = useState(false);
  const ready = allPass(checks);
  const readyAnnouncement = !cameraOn ? '' : ready ? 'Ready: you can capture a photo.' : 'Not ready yet.';

  // Face guidance while the camera is live (useCamera starts it on mount and stops it on unmount).
  useEffect(() => {
    if (!cameraOn) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const video = videoRef.current!;
    const forced = new URLSearchParams(window.location.search).get('facebackend');

    const loop = async () => {
      const guide = guideRef.current;
      if (!live || !guide) return;
      try {
        if (video.readyState >= 2 && video.videoWidth > 0) {
          const { faces, crop, ms } = await guide.analyse(video);
          if (!live) return;
          const c = evaluateFrame(faces, { width: video.videoWidth, height: video.videoHeight }, crop);
          setChecks(c);
          setGuideInfo((g) => (g ? { ...g, ms } : g));
          if (overlayRef.current) drawOverlay(overlayRef.current, video, faces, allPass(c));
        }
      } catch (err) {
        setGuideMessage(`Face guidance stopped: ${(err as Error).message}`);
        return;
      }
      timer = setTimeout(() => void loop(), GUIDE_INTERVAL_MS);
    };

    (async () => {
      try {
        // Loaded once per page: a camera restarted later reuses it.
        if (!guideRef.current) {
          setGuideMessage('Loading face guidance…');
          const guide = await loadFaceGuide(forced, (m) => live && setGuideMessage(m));
          if (!live) return;
          guideRef.current = guide;
          setGuideInfo({ backend: guide.backend, loadMs: guide.loadMs });
        }
        setGuideMessage('');
        void loop();
      } catch (err) {
        if (live) setGuideMessage(`Face guidance is unavailable (${(err as Error).message}). Upload photos instead.`);
      }
    })();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [cameraOn, videoRef]);

  // Free the object URLs of the thumbnails.
  const photosRef = useRef(photos);
  photosRef.current = photos;
  useEffect(() => () => photosRef.current.forEach((p) => URL.revokeObjectURL(p.url)), []);

  function addPhoto(blob: Blob, source: Photo['source'], fileName: string) {
    setPhotos((ps) => (ps.length >= MAX_PHOTOS ? ps : [...ps, { id: nextId++, blob, url: URL.createObjectURL(blob), source, name: fileName }]));
  }

  async function capture() {
    const video = videoRef.current;
    if (!video || !ready || photos.length >= MAX_PHOTOS) return;
    try {
      addPhoto(await captureFrame(video), 'camera', `capture-${photos.length + 1}.jpg`);
    } catch (err) {
      setError(`Capture failed: ${(err as Error).message}`);
    }
  }

  function onFiles(files: FileList | null) {
    if (!files) return;
    const room = MAX_PHOTOS - photos.length;
    const list = Array.from(files).slice(0, room);
    for (const f of list) {
      if (!/^image\/(jpeg|png)$/.test(f.type)) {
        setError(`${f.name}: only JPEG and PNG photos can be used.`);
        continue;
      }
      addPhoto(f, 'upload', f.name);
    }
    if (files.length > room) setError(`Only ${MAX_PHOTOS} photos per registration; ${files.length - room} not added.`);
  }

  function removePhoto(id: number) {
    setPhotos((ps) => {
      const p = ps.find((x) => x.id === id);
      if (p) URL.revokeObjectURL(p.url);
      return ps.filter((x) => x.id !== id);
    });
  }

  async function submit(allowDuplicate = false) {
    setError('');
    setDuplicateOf(false);
    setSteps([]);
    if (!name.trim()) return setError('Enter a name.');
    if (photos.length < MIN_PHOTOS) return setError(`Add at least ${MIN_PHOTOS} photos (you have ${photos.length}).`);
    const metadata: Record<string, string> = {};
    for (const r of meta) if (r.key.trim()) metadata[r.key.trim()] = r.value;
    setSubmitting(true);
    const total = photos.length;
    const done: StepResult[] = [];
    try {
      setProgress({ done: 0, total, label: `Registering ${name.trim()} with photo 1 of ${total}…` });
      const form = new FormData();
      form.set('name', name.trim());
      form.set('relationship', relationship.trim());
      if (Object.keys(metadata).length) form.set('metadata', JSON.stringify(metadata));
      if (allowDuplicate) form.set('allow_duplicate', 'true');
      form.set('image', photos[0]!.blob, photos[0]!.name.replace(/[^\w.-]/g, '_') || 'photo.jpg');
      let person = await api.register(form);
      done.push({ photo: 1, ok: true, message: 'registered' });
      setProgress({ done: 1, total, label: `Registered. Adding photo 2 of ${total}…` });
      for (let i = 1; i < photos.length; i++) {
        setProgress({ done: i, total, label: `Adding photo ${i + 1} of ${total}…` });
        try {
          person = await api.addFace(person.person_id, photos[i]!.blob, photos[i]!.name);
          done.push({ photo: i + 1, ok: true, message: 'added' });
        } catch (err) {
          done.push({ photo: i + 1, ok: false, message: describeError(err) });
        }
        setSteps([...done]);
      }
      setProgress({ done: total, total, label: 'Done.' });
      setSteps([...done]);
      setResult(person);
    } catch (err) {
      setProgress(undefined);
      if (err instanceof ApiError && err.code === 'FACE_ALREADY_REGISTERED') setDuplicateOf(true);
      setError(describeError(err));
    } finally {
      setSubmitting(false);
    }
  }

  function reset() {
    photos.forEach((p) => URL.revokeObjectURL(p.url));
    setPhotos([]);
    setName('');
    setRelationship('');
    setMeta([]);
    setResult(undefined);
    setSteps([]);
    setProgress(undefined);
  }

  const failing = checks.filter((c) => !c.ok);
  return (
    <main>
      <h1>Register a person</h1>
      <p className="lede">
        Capture {MIN_PHOTOS}–{MAX_PHOTOS} clear photos of one person, facing the camera in good light. Only face descriptors are stored.
      </p>
      <div className={styles.layout}>
        <section aria-labelledby="camera-heading" className={styles.cameraColumn}>
          <h2 id="camera-heading">Camera</h2>
          <div className={styles.stage} hidden={cameraFailed}>
            <video ref={videoRef} className={styles.video} data-testid="camera-video" aria-label="Camera preview" muted playsInline />
            <canvas ref={overlayRef} className={styles.overlay} aria-hidden="true" data-testid="face-overlay" />
          </div>
          {cameraFailed && (
            <p className="alert alert-warn" role="alert" data-testid="camera-error" data-reason={camera.error?.reason}>
              {camera.error?.message} Use the photo upload below.
            </p>
          )}
          <div aria-live="polite">
            {guideStatus && <p className="muted" data-testid="guide-status">{guideStatus}</p>}
            <p className="visually-hidden">{readyAnnouncement}</p>
          </div>
          {cameraOn && guideInfo && (
            <>
              <ul className={styles.checks} data-testid="guide-checks" data-ready={ready}>
                {checks.map((c) => (
                  <li key={c.id} data-check={c.id} data-ok={c.ok} className={c.ok ? styles.ok : styles.bad}>
                    <span aria-hidden="true">{c.ok ? '✓' : '✗'}</span> {c.label}
                    {!c.ok && <span className={styles.hint}> — {c.hint}</span>}
                  </li>
                ))}
              </ul>
              <p className="muted">
                Face guidance: <span data-testid="guide-backend">{guideInfo.backend}</span>, loaded in {guideInfo.loadMs} ms
                {guideInfo.ms !== undefined && <>, {guideInfo.ms} ms per frame</>}.
              </p>
            </>
          )}
          {cameraOn && (
            <button type="button" data-testid="capture" onClick={() => void capture()} disabled={!ready || photos.length >= MAX_PHOTOS} aria-describedby="capture-hint">
              Capture photo ({photos.length}/{MAX_PHOTOS})
            </button>
          )}
          {cameraOn && (
            <p id="capture-hint" className="hint">
              {photos.length >= MAX_PHOTOS ? 'Maximum reached.' : ready ? 'Ready.' : failing.length ? `Waiting for: ${failing.map((c) => c.label.toLowerCase()).join(', ')}.` : 'Waiting for the face guidance.'}
            </p>
          )}
          <div className="field">
            <label htmlFor="photo-upload">{cameraFailed ? 'Upload photos (JPEG or PNG)' : 'Or upload photos (JPEG or PNG)'}</label>
            <input id="photo-upload" data-testid="photo-upload" type="file" accept="image/jpeg,image/png" multiple onChange={(e) => { onFiles(e.target.files); e.target.value = ''; }} />
          </div>
        </section>

        <section aria-labelledby="details-heading" className={styles.formColumn}>
          <h2 id="details-heading">Photos and details</h2>
          {photos.length === 0 ? (
            <p className="muted">No photos yet.</p>
          ) : (
            <ul className={styles.thumbs} data-testid="photo-list">
              {photos.map((p, i) => (
                <li key={p.id}>
                  {/* eslint-disable-next-line @next/next/no-img-element */}
                  <img src={p.url} alt={`Photo ${i + 1} (${p.source})`} />
                  <button type="button" className="secondary" onClick={() => removePhoto(p.id)} aria-label={`Remove photo ${i + 1}`}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <div className="field">
              <label htmlFor="person-name">Name</label>
              <input id="person-name" data-testid="person-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
            </div>
            <div className="field">
              <label htmlFor="person-relationship">Relationship</label>
              <input id="person-relationship" data-testid="person-relationship" maxLength={100} value={relationship} placeholder="e.g. daughter, neighbour, carer" onChange={(e) => setRelationship(e.target.value)} />
            </div>
            <fieldset className={styles.meta}>
              <legend>Other details (optional)</legend>
              {meta.map((r, i) => (
                <div key={r.id} className="field-row">
                  <div className="field">
                    <label htmlFor={`meta-key-${r.id}`}>Detail {i + 1} name</label>
                    <input id={`meta-key-${r.id}`} data-testid="meta-key" value={r.key} maxLength={100} onChange={(e) => setMeta((m) => m.map((x) => (x.id === r.id ? { ...x, key: e.target.value } : x)))} />
                  </div>
                  <div className="field">
                    <label htmlFor={`meta-value-${r.id}`}>Detail {i + 1} value</label>
                    <input id={`meta-value-${r.id}`} data-testid="meta-value" value={r.value} maxLength={1000} onChange={(e) => setMeta((m) => m.map((x) => (x.id === r.id ? { ...x, value: e.target.value } : x)))} />
                  </div>
                  <div className="field">
                    <button type="button" className="secondary" onClick={() => setMeta((m) => m.filter((x) => x.id !== r.id))} aria-label={`Remove detail ${i + 1}`}>
                      Remove
                    </button>
                  </div>
                </div>
              ))}
              <button type="button" className="secondary" data-testid="meta-add" onClick={() => setMeta((m) => [...m, { id: nextId++, key: '', value: '' }])}>
                Add a detail
              </button>
            </fieldset>
            <button type="submit" data-testid="register-submit" disabled={submitting || photos.length < MIN_PHOTOS || !name.trim()}>
              {submitting ? 'Registering…' : `Register with ${photos.length} photo${photos.length === 1 ? '' : 's'}`}
            </button>
            {photos.length < MIN_PHOTOS && <p className="hint">Add {MIN_PHOTOS - photos.length} more photo{MIN_PHOTOS - photos.length === 1 ? '' : 's'} to register.</p>}
          </form>
          <div aria-live="polite" data-testid="register-status">
            {progress && (
              <div className={styles.progress}>
                <progress max={progress.total} value={progress.done} aria-label="Registration progress" />
                <p>{progress.label}</p>
              </div>
            )}
            {error && (
              <div className="alert alert-error" role="alert" data-testid="register-error">
                <p>{error}</p>
                {duplicateOf && (
                  <button type="button" className="secondary" onClick={() => void submit(true)}>
                    Register as a new person anyway
                  </button>
                )}
              </div>
            )}
            {steps.some((s) => !s.ok) && (
              <ul className="alert alert-warn">
                {steps.filter((s) => !s.ok).map((s) => (
                  <li key={s.photo}>
                    Photo {s.photo} was not added: {s.message}
                  </li>
                ))}
              </ul>
            )}
            {result && (
              <div className="alert alert-ok" data-testid="register-result" data-person-id={result.person_id}>
                <p>
                  Registered <strong>{result.name}</strong>
                  {result.relationship && <> ({result.relationship})</>} with {result.embedding_count} photo{result.embedding_count === 1 ? '' : 's'}.
                </p>
                <p>
                  <Link href="/people">See everyone registered</Link> ·{' '}
                  <button type="button" className="secondary" onClick={reset}>
                    Register someone else
                  </button>
                </p>
              </div>
            )}
          </div>
        </section>
      </div>
    </main>
  );
}
