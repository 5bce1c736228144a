'use client';
/**
 * Webcam registration: a live preview with a face overlay computed in the browser (Human), guidance
 * that gates the capture button, 3–5 captured photos, then POST /api/v1/register with the first
 * and POST /api/v1/persons/{id}/faces for the rest. Without a camera (or permission) the same
 * form takes uploaded photos.
 */
import Link from 'next/link';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiErrorDetails, Person } from '@/lib/contracts/persons';
import { captureFrame } from '@/lib/browser/camera';
import { checkPhotoFile } from '@/lib/browser/check-photo';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { loadFaceGuide, type FaceGuide } from '@/lib/browser/face-guide';
import { allPass, evaluateFrame, type Check, type GuideFace } from '@/lib/browser/face-quality';
import { useCamera } from '@/lib/browser/use-camera';
import { api, ApiError } from '@/lib/browser/vigil-api';
import { ErrorNotice } from '@/app/components/error-notice';
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
type StepResult = { photo: number; ok: boolean; error?: ExplainedError };
/** What the last submit did: a new person, or photos added to the person the face matched. */
type Outcome = { person: Person; mode: 'registered' | 'added'; tried: number };
type FileProblem = { label: string; error: ExplainedError };

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
  const guideLoadRef = useRef<Promise<FaceGuide> | null>(null);
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
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [error, setError] = useState<ExplainedError | undefined>();
  const [duplicateOf, setDuplicateOf] = useState<ApiErrorDetails | undefined>();
  const [fileProblems, setFileProblems] = useState<FileProblem[]>([]);
  const [checking, setChecking] = useState('');
  const statusRef = useRef<HTMLDivElement>(null);
  const ready = allPass(checks);
  const readyAnnouncement = !cameraOn ? '' : ready ? 'Ready: you can capture a photo.' : 'Not ready yet.';
  const finished = outcome !== undefined;

  /** The page's one face detector (Human): the live guidance and the upload check share it. */
  const ensureGuide = useCallback((): Promise<FaceGuide> => {
    if (guideRef.current) return Promise.resolve(guideRef.current);
    if (!guideLoadRef.current) {
      const forced = new URLSearchParams(window.location.search).get('facebackend');
      const loading = loadFaceGuide(forced, (m) => setGuideMessage(m)).then((guide) => {
        guideRef.current = guide;
        setGuideInfo({ backend: guide.backend, loadMs: guide.loadMs });
        return guide;
      });
      loading.catch(() => {
        if (guideLoadRef.current === loading) guideLoadRef.current = null; // a later call retries
      });
      guideLoadRef.current = loading;
    }
    return guideLoadRef.current;
  }, []);

  // Face guidance while the camera is live (useCamera starts it on mount and stops it on unmount).
  useEffect(() => {
    if (!cameraOn) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const video = videoRef.current!;

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
        if (!guideRef.current) setGuideMessage('Loading face guidance…');
        await ensureGuide();
        if (!live) return;
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
  }, [cameraOn, videoRef, ensureGuide]);

  // Free the object URLs of the thumbnails.
  const photosRef = useRef(photos);
  photosRef.current = photos;
  useEffect(() => () => photosRef.current.forEach((p) => URL.revokeObjectURL(p.url)), []);

  // A new message or result is shown where the eye is: scrolled into view and focused.
  useEffect(() => {
    if (!error && !outcome && fileProblems.length === 0) return;
    const box = statusRef.current?.querySelector<HTMLElement>('[role="alert"], [data-testid="register-result"]');
    if (!box) return;
    box.scrollIntoView({ block: 'nearest' });
    box.focus({ preventScroll: true });
  }, [error, outcome, fileProblems]);

  function addPhoto(blob: Blob, source: Photo['source'], fileName: string) {
    setPhotos((ps) => (ps.length >= MAX_PHOTOS ? ps : [...ps, { id: nextId++, blob, url: URL.createObjectURL(blob), source, name: fileName }]));
  }

  async function capture() {
    const video = videoRef.current;
    if (!video || !ready || photos.length >= MAX_PHOTOS || finished) return;
    try {
      addPhoto(await captureFrame(video), 'camera', `capture-${photos.length + 1}.jpg`);
    } catch (err) {
      setError({ summary: `The photo could not be captured: ${(err as Error).message}` });
    }
  }

  /** Each chosen file is checked here (bytes, decoding, a face) before it can be uploaded. */
  async function onFiles(files: FileList | null) {
    if (!files || files.length === 0) return;
    setError(undefined);
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
        if (verdict.ok) addPhoto(f, 'upload', f.name);
        else problems.push({ label: f.name, error: { summary: `Not added: ${verdict.reason}.` } });
      } catch (err) {
        // The detector could not load: the server checks the photo instead.
        addPhoto(f, 'upload', f.name);
        console.warn(`photo check skipped: ${(err as Error).message}`);
      }
    }
    setChecking('');
    setFileProblems(problems);
  }

  function removePhoto(id: number) {
    setPhotos((ps) => {
      const p = ps.find((x) => x.id === id);
      if (p) URL.revokeObjectURL(p.url);
      return ps.filter((x) => x.id !== id);
    });
  }

  /** Adds photos [from, end) to a person; a photo the server refuses is reported, the rest go on. */
  async function addPhotos(person: Person, from: number, done: StepResult[]): Promise<Person> {
    const total = photos.length;
    for (let i = from; i < total; i++) {
      setProgress({ done: i, total, label: `Adding photo ${i + 1} of ${total}…` });
      try {
        person = await api.addFace(person.person_id, photos[i]!.blob, photos[i]!.name);
        done.push({ photo: i + 1, ok: true });
      } catch (err) {
        done.push({ photo: i + 1, ok: false, error: explainError(err) });
      }
      setSteps([...done]);
    }
    return person;
  }

  async function submit(allowDuplicate = false) {
    setError(undefined);
    setDuplicateOf(undefined);
    setSteps([]);
    if (finished) return;
    if (!name.trim()) return setError({ summary: 'Enter a name.' });
    if (photos.length < MIN_PHOTOS) return setError({ summary: `Add at least ${MIN_PHOTOS} photos (you have ${photos.length}).` });
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
      const first = await api.register(form);
      done.push({ photo: 1, ok: true });
      const person = await addPhotos(first, 1, done);
      setProgress(undefined);
      setSteps([...done]);
      setOutcome({ person, mode: 'registered', tried: total });
    } catch (err) {
      setProgress(undefined);
      if (err instanceof ApiError && err.code === 'FACE_ALREADY_REGISTERED' && err.details) {
        setDuplicateOf(err.details);
        setError({
          summary: `These photos look like ${err.details.name}, who is already registered. Add the photos to ${err.details.name}, or register a new person only if this is someone else.`,
          code: err.code,
          detail: err.message,
        });
      } else {
        setError(explainError(err));
      }
    } finally {
      setSubmitting(false);
    }
  }

  /** The duplicate message's main action: every photo goes to the person the face matched. */
  async function addToExisting(target: ApiErrorDetails) {
    setError(undefined);
    setDuplicateOf(undefined);
    setSubmitting(true);
    const done: StepResult[] = [];
    try {
      const person = await addPhotos(await api.getPerson(target.person_id), 0, done);
      setProgress(undefined);
      setOutcome({ person, mode: 'added', tried: photos.length });
    } catch (err) {
      setProgress(undefined);
      setError(explainError(err));
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
    setOutcome(undefined);
    setSteps([]);
    setProgress(undefined);
    setError(undefined);
    setFileProblems([]);
    setFocusName((n) => n + 1);
  }

  // After "Register someone else" the form is enabled again on the next render: start at the name.
  const [focusName, setFocusName] = useState(0);
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusName) nameRef.current?.focus();
  }, [focusName]);

  const failing = checks.filter((c) => !c.ok);
  const added = outcome ? steps.filter((s) => s.ok).length : 0;
  return (
    <main>
      <h1>Register a person</h1>
      <p className="lede">
        Capture {MIN_PHOTOS}–{MAX_PHOTOS} clear photos of one person, facing the camera in good light. Only face descriptors are stored.
      </p>
      <div className={styles.layout}>
        <section aria-labelledby="camera-heading" className={styles.cameraColumn}>
          <h2 id="camera-heading" className="visually-hidden">
            Camera
          </h2>
          <div className={styles.stage} hidden={cameraFailed}>
            <video ref={videoRef} className={styles.video} data-testid="camera-video" aria-label="Camera preview" muted playsInline />
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
                onClick={() => void capture()}
                disabled={!ready || photos.length >= MAX_PHOTOS || finished}
                aria-describedby="capture-hint"
              >
                Capture photo ({photos.length}/{MAX_PHOTOS})
              </button>
              <span id="capture-hint" className="hint">
                {photos.length >= MAX_PHOTOS
                  ? 'Maximum reached.'
                  : ready
                    ? 'Ready.'
                    : failing.length
                      ? `Waiting for: ${failing.map((c) => c.label.toLowerCase()).join(', ')}.`
                      : 'Waiting for the face guidance.'}
              </span>
            </div>
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
                    {/* The symbol and the word carry the state, not only the colour. */}
                    <span aria-hidden="true" className={styles.mark}>
                      {c.ok ? '✓' : '✗'}
                    </span>{' '}
                    <span className={styles.state}>{c.ok ? 'Passed:' : 'Not yet:'}</span> {c.label}
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
          <div className="field">
            <label htmlFor="photo-upload">{cameraFailed ? 'Upload photos (JPEG or PNG)' : 'Or upload photos (JPEG or PNG)'}</label>
            <input
              id="photo-upload"
              data-testid="photo-upload"
              type="file"
              accept="image/jpeg,image/png"
              multiple
              disabled={finished || !!checking}
              onChange={(e) => {
                void onFiles(e.target.files);
                e.target.value = '';
              }}
            />
            <p className="hint" aria-live="polite" data-testid="photo-checking">
              {checking || 'Each photo is checked for a usable face before it is added.'}
            </p>
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
                  {/* biome-ignore lint/performance/noImgElement: a blob: URL of the user's own photo; next/image would only pass it through unoptimised. */}
                  <img src={p.url} alt={`Face ${i + 1} (${p.source})`} />
                  <button type="button" className="secondary" onClick={() => removePhoto(p.id)} aria-label={`Remove photo ${i + 1}`} disabled={finished}>
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
            <fieldset className={styles.plain} disabled={finished}>
              <legend className="visually-hidden">Person</legend>
              <div className="field">
                <label htmlFor="person-name">Name</label>
                <input id="person-name" ref={nameRef} data-testid="person-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
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
              <button type="submit" data-testid="register-submit" disabled={submitting || finished || photos.length < MIN_PHOTOS || !name.trim()}>
                {submitting ? 'Registering…' : `Register with ${photos.length} photo${photos.length === 1 ? '' : 's'}`}
              </button>
              {!finished && photos.length < MIN_PHOTOS && (
                <p className="hint">
                  Add {MIN_PHOTOS - photos.length} more photo{MIN_PHOTOS - photos.length === 1 ? '' : 's'} to register.
                </p>
              )}
            </fieldset>
          </form>
          <div aria-live="polite" data-testid="register-status" ref={statusRef}>
            {progress && (
              <div className={styles.progress}>
                <progress max={progress.total} value={progress.done} aria-label="Registration progress" />
                <p>{progress.label}</p>
              </div>
            )}
            {fileProblems.length > 0 && (
              <ErrorNotice testId="file-errors" items={fileProblems} tone="warn">
                <p className="hint">{photos.length < MIN_PHOTOS ? `You need ${MIN_PHOTOS - photos.length} more usable photo${MIN_PHOTOS - photos.length === 1 ? '' : 's'}.` : ''}</p>
              </ErrorNotice>
            )}
            {error && (
              <ErrorNotice error={error} testId="register-error">
                {duplicateOf && (
                  <p className={styles.actions}>
                    <button type="button" data-testid="add-to-existing" onClick={() => void addToExisting(duplicateOf)} disabled={submitting}>
                      Add these photos to {duplicateOf.name}
                    </button>
                    <button type="button" className="secondary" data-testid="register-anyway" onClick={() => void submit(true)} disabled={submitting}>
                      Register as a new person anyway
                    </button>
                  </p>
                )}
              </ErrorNotice>
            )}
            {steps.some((s) => !s.ok) && (
              <ul className="alert alert-warn" data-testid="photo-failures">
                {steps
                  .filter((s) => !s.ok)
                  .map((s) => (
                    <li key={s.photo}>
                      Photo {s.photo} was not added: {s.error?.summary}
                      {s.error?.code && (
                        <details>
                          <summary>Details</summary>
                          <p>
                            <code>{s.error.code}</code>: {s.error.detail}
                          </p>
                        </details>
                      )}
                    </li>
                  ))}
              </ul>
            )}
            {outcome && (
              <div
                className={`alert ${outcome.person.embedding_count < MIN_PHOTOS ? 'alert-warn' : 'alert-ok'}`}
                data-testid="register-result"
                data-person-id={outcome.person.person_id}
                tabIndex={-1}
              >
                {outcome.mode === 'registered' ? (
                  <p>
                    Registered <strong>{outcome.person.name}</strong>
                    {outcome.person.relationship && <> ({outcome.person.relationship})</>} with {outcome.person.embedding_count} photo
                    {outcome.person.embedding_count === 1 ? '' : 's'}.
                  </p>
                ) : (
                  <p>
                    Added {added} of {outcome.tried} photo{outcome.tried === 1 ? '' : 's'} to <strong>{outcome.person.name}</strong>, who now has{' '}
                    {outcome.person.embedding_count} photo{outcome.person.embedding_count === 1 ? '' : 's'}.
                  </p>
                )}
                {outcome.person.embedding_count < MIN_PHOTOS && (
                  <p data-testid="register-short">
                    That is fewer than the {MIN_PHOTOS} usable photos this page asks for, so recognition may miss {outcome.person.name}. Add more on the{' '}
                    <Link href={`/people#person-${outcome.person.person_id}`}>People page</Link> with “Add photos”.
                  </p>
                )}
                <p>
                  <Link href="/people">See everyone registered</Link> ·{' '}
                  <button type="button" className="secondary" data-testid="register-another" onClick={reset}>
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
