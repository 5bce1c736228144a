'use client';
/**
 * Webcam registration: a live preview with a face overlay computed in the browser (Human), guidance
 * that gates the capture button, 3–5 captured photos, then POST /api/v1/register with the first
 * and POST /api/v1/persons/{id}/faces for the rest. Without a camera (or permission) the same
 * form takes uploaded photos.
 */
import { useEffect, useRef, useState } from 'react';
import type { ApiErrorDetails } from '@/lib/contracts/api-v1';
import { captureFrame } from '@/lib/browser/camera';
import { checkPhotoFile } from '@/lib/browser/check-photo';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import {
  addPhotosTo,
  MAX_PHOTOS,
  MIN_PHOTOS,
  registerWithPhotos,
  registrationProblem,
  type RegistrationEvents,
  type RegistrationProgress,
  type StepResult,
} from '@/lib/browser/register-with-photos';
import { useCamera } from '@/lib/browser/use-camera';
import { api, ApiError } from '@/lib/browser/vigil-api';
import { ErrorNotice } from '@/app/components/error-notice';
import { useFaceGuidance } from './use-face-guidance';
import { usePhotoTray } from './use-photo-tray';
import { RegistrationResult, type Outcome } from './registration-result';
import styles from './register.module.css';

interface MetaRow {
  id: number;
  key: string;
  value: string;
}
type FileProblem = { label: string; error: ExplainedError };

let nextMetaId = 1;

export function RegisterPerson() {
  const camera = useCamera();
  const { videoRef } = camera;
  const cameraOn = camera.status === 'live';
  const cameraFailed = camera.status === 'error';
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const guidance = useFaceGuidance(cameraOn, videoRef, overlayRef);
  const { checks, ready, info: guideInfo, ensureGuide } = guidance;
  const guideStatus = camera.status === 'starting' ? 'Starting the camera…' : cameraOn ? guidance.message : '';
  const tray = usePhotoTray();
  const { photos } = tray;
  const [name, setName] = useState('');
  const [relationship, setRelationship] = useState('');
  const [meta, setMeta] = useState<MetaRow[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<RegistrationProgress | undefined>();
  const [steps, setSteps] = useState<readonly StepResult[]>([]);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [error, setError] = useState<ExplainedError | undefined>();
  const [duplicateOf, setDuplicateOf] = useState<ApiErrorDetails | undefined>();
  const [fileProblems, setFileProblems] = useState<FileProblem[]>([]);
  const [checking, setChecking] = useState('');
  const statusRef = useRef<HTMLDivElement>(null);
  const readyAnnouncement = !cameraOn ? '' : ready ? 'Ready: you can capture a photo.' : 'Not ready yet.';
  const finished = outcome !== undefined;
  const events: RegistrationEvents = { onProgress: setProgress, onSteps: setSteps };

  // A new message or result is shown where the eye is: scrolled into view and focused.
  useEffect(() => {
    if (!error && !outcome && fileProblems.length === 0) return;
    const box = statusRef.current?.querySelector<HTMLElement>('[role="alert"], [data-testid="register-result"]');
    if (!box) return;
    box.scrollIntoView({ block: 'nearest' });
    box.focus({ preventScroll: true });
  }, [error, outcome, fileProblems]);

  async function capture() {
    const video = videoRef.current;
    if (!video || !ready || tray.full || finished) return;
    try {
      tray.add(await captureFrame(video), 'camera', `capture-${photos.length + 1}.jpg`);
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
        if (verdict.ok) tray.add(f, 'upload', f.name);
        else problems.push({ label: f.name, error: { summary: `Not added: ${verdict.reason}.` } });
      } catch (err) {
        // The detector could not load: the server checks the photo instead.
        tray.add(f, 'upload', f.name);
        console.warn(`photo check skipped: ${(err as Error).message}`);
      }
    }
    setChecking('');
    setFileProblems(problems);
  }

  async function submit(allowDuplicate = false) {
    setError(undefined);
    setDuplicateOf(undefined);
    setSteps([]);
    if (finished) return;
    const problem = registrationProblem(name, photos.length);
    if (problem) return setError({ summary: problem });
    setSubmitting(true);
    try {
      const done = await registerWithPhotos({ name, relationship, details: meta, photos, allowDuplicate }, api, events);
      setProgress(undefined);
      setSteps(done.steps);
      setOutcome({ person: done.person, mode: 'registered', tried: photos.length });
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
    try {
      const done = await addPhotosTo(await api.getPerson(target.person_id), photos, 0, api, events);
      setProgress(undefined);
      setOutcome({ person: done.person, mode: 'added', tried: photos.length });
    } catch (err) {
      setProgress(undefined);
      setError(explainError(err));
    } finally {
      setSubmitting(false);
    }
  }

  function reset() {
    tray.clear();
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

  const failing = checks.filter((c) => !c.ok && !c.advisory);
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
                disabled={!ready || tray.full || finished}
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
            {guideStatus && (
              <p className="muted" data-testid="guide-status">
                {guideStatus}
              </p>
            )}
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
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => tray.remove(p.id)}
                    aria-label={`Remove photo ${i + 1}`}
                    disabled={finished}
                  >
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
                <input
                  id="person-name"
                  ref={nameRef}
                  data-testid="person-name"
                  required
                  maxLength={200}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  autoComplete="off"
                />
              </div>
              <div className="field">
                <label htmlFor="person-relationship">Relationship</label>
                <input
                  id="person-relationship"
                  data-testid="person-relationship"
                  maxLength={100}
                  value={relationship}
                  placeholder="e.g. daughter, neighbour, carer"
                  onChange={(e) => setRelationship(e.target.value)}
                />
              </div>
              <fieldset className={styles.meta}>
                <legend>Other details (optional)</legend>
                {meta.map((r, i) => (
                  <div key={r.id} className="field-row">
                    <div className="field">
                      <label htmlFor={`meta-key-${r.id}`}>Detail {i + 1} name</label>
                      <input
                        id={`meta-key-${r.id}`}
                        data-testid="meta-key"
                        value={r.key}
                        maxLength={100}
                        onChange={(e) => setMeta((m) => m.map((x) => (x.id === r.id ? { ...x, key: e.target.value } : x)))}
                      />
                    </div>
                    <div className="field">
                      <label htmlFor={`meta-value-${r.id}`}>Detail {i + 1} value</label>
                      <input
                        id={`meta-value-${r.id}`}
                        data-testid="meta-value"
                        value={r.value}
                        maxLength={1000}
                        onChange={(e) => setMeta((m) => m.map((x) => (x.id === r.id ? { ...x, value: e.target.value } : x)))}
                      />
                    </div>
                    <div className="field">
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => setMeta((m) => m.filter((x) => x.id !== r.id))}
                        aria-label={`Remove detail ${i + 1}`}
                      >
                        Remove
                      </button>
                    </div>
                  </div>
                ))}
                <button
                  type="button"
                  className="secondary"
                  data-testid="meta-add"
                  onClick={() => setMeta((m) => [...m, { id: nextMetaId++, key: '', value: '' }])}
                >
                  Add a detail
                </button>
              </fieldset>
              <button
                type="submit"
                data-testid="register-submit"
                disabled={submitting || finished || photos.length < MIN_PHOTOS || !name.trim()}
              >
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
                <p className="hint">
                  {photos.length < MIN_PHOTOS
                    ? `You need ${MIN_PHOTOS - photos.length} more usable photo${MIN_PHOTOS - photos.length === 1 ? '' : 's'}.`
                    : ''}
                </p>
              </ErrorNotice>
            )}
            {error && (
              <ErrorNotice error={error} testId="register-error">
                {duplicateOf && (
                  <p className={styles.actions}>
                    <button
                      type="button"
                      data-testid="add-to-existing"
                      onClick={() => void addToExisting(duplicateOf)}
                      disabled={submitting}
                    >
                      Add these photos to {duplicateOf.name}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      data-testid="register-anyway"
                      onClick={() => void submit(true)}
                      disabled={submitting}
                    >
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
            {outcome && <RegistrationResult {...outcome} added={added} onAnother={reset} />}
          </div>
        </section>
      </div>
    </main>
  );
}
