'use client';
/**
 * Webcam registration: a live preview with a face overlay computed in the browser (Human), guidance
 * that gates the capture button, 1–5 captured photos (one registers; a few more, each a little
 * different, help recognition; a near-identical one is refused: lib/browser/photo-likeness.ts), then
 * POST /api/v1/register with the first and POST /api/v1/persons/{id}/faces for the rest. Without a
 * camera (or permission) the same form takes uploaded photos.
 */
import { useEffect, useRef, useState } from 'react';
import type { ApiErrorDetails } from '@/lib/contracts/api-v1';
import { captureFrame } from '@/lib/browser/camera';
import { signatureOfPhoto } from '@/lib/browser/check-photo';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import {
  addPhotosTo,
  MAX_PHOTOS,
  MIN_PHOTOS,
  nearlySameProblem,
  RECOMMENDED_PHOTOS,
  registerWithPhotos,
  registrationProblem,
  type RegistrationEvents,
  type RegistrationProgress,
  type StepResult,
} from '@/lib/browser/register-with-photos';
import { useCamera } from '@/lib/browser/use-camera';
import { api, ApiError } from '@/lib/browser/vigil-api';
import { CameraStage } from './camera-stage';
import { DetailRows, type MetaRow } from './detail-rows';
import { GuideChecks } from './guide-checks';
import { NameFields } from './name-fields';
import { PhotoThumbs } from './photo-thumbs';
import { PhotoUploadField } from './photo-upload-field';
import { RegistrationProblems } from './registration-problems';
import { useFaceGuidance } from './use-face-guidance';
import { usePhotoTray } from './use-photo-tray';
import { usePhotoUploads } from './use-photo-uploads';
import { RegistrationResult, type Outcome } from './registration-result';
import styles from './register.module.css';

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
  const uploads = usePhotoUploads(tray, ensureGuide);
  const { checking, fileProblems, setFileProblems } = uploads;
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
      const frame = await captureFrame(video);
      const signature = await signatureOfPhoto(frame);
      const same = tray.repeats(signature);
      if (same > 0) {
        setFileProblems([{ label: 'The new capture', error: { summary: nearlySameProblem(same, 'camera') } }]);
        return;
      }
      setFileProblems([]);
      tray.add(frame, 'camera', `capture-${photos.length + 1}.jpg`, signature);
    } catch (err) {
      setError({ summary: `The photo could not be captured: ${(err as Error).message}` });
    }
  }

  function onFiles(files: FileList | null) {
    if (!files || files.length === 0) return;
    setError(undefined);
    void uploads.check(files);
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
      // Files refused earlier are not part of what was registered: their warnings go with the success.
      setFileProblems([]);
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
      setFileProblems([]);
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

  const added = outcome ? steps.filter((s) => s.ok).length : 0;
  return (
    <main>
      <h1>Register a person</h1>
      <p className="lede">
        Capture a clear photo of one person, facing the camera in good light: one is enough to register, and up to {MAX_PHOTOS}, each a
        little different (head turned slightly, other light), help recognition. Only face descriptors are stored.
      </p>
      <div className={styles.layout}>
        <section aria-labelledby="camera-heading" className={styles.cameraColumn}>
          <h2 id="camera-heading" className="visually-hidden">
            Camera
          </h2>
          <CameraStage
            camera={camera}
            overlayRef={overlayRef}
            checks={checks}
            ready={ready}
            full={tray.full}
            finished={finished}
            count={photos.length}
            onCapture={() => void capture()}
          />
          <GuideChecks
            status={guideStatus}
            announcement={readyAnnouncement}
            checks={checks}
            ready={ready}
            info={cameraOn ? guideInfo : undefined}
          />
          <PhotoUploadField cameraFailed={cameraFailed} disabled={finished || !!checking} checking={checking} onFiles={onFiles} />
        </section>

        <section aria-labelledby="details-heading" className={styles.formColumn}>
          <h2 id="details-heading">Photos and details</h2>
          <PhotoThumbs photos={photos} disabled={finished} onRemove={tray.remove} />
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <fieldset className={styles.plain} disabled={finished}>
              <legend className="visually-hidden">Person</legend>
              <NameFields name={name} onName={setName} relationship={relationship} onRelationship={setRelationship} nameRef={nameRef} />
              <DetailRows rows={meta} onChange={setMeta} />
              <button
                type="submit"
                data-testid="register-submit"
                disabled={submitting || finished || photos.length < MIN_PHOTOS || !name.trim()}
              >
                {submitting ? 'Registering…' : `Register with ${photos.length} photo${photos.length === 1 ? '' : 's'}`}
              </button>
              {!finished && photos.length < MIN_PHOTOS && <p className="hint">Add a photo to register.</p>}
              {!finished && photos.length >= MIN_PHOTOS && photos.length < RECOMMENDED_PHOTOS && (
                <p className="hint" data-testid="register-more-advice">
                  {photos.length === 1 ? 'One photo is enough to register.' : `${photos.length} photos are enough to register.`} Adding{' '}
                  {RECOMMENDED_PHOTOS - photos.length} more, each a little different (head turned slightly, other light), helps recognition.
                </p>
              )}
            </fieldset>
          </form>
          <div aria-live="polite" data-testid="register-status" ref={statusRef}>
            <RegistrationProblems
              progress={progress}
              fileProblems={fileProblems}
              missing={MIN_PHOTOS - photos.length}
              error={error}
              duplicateOf={duplicateOf}
              submitting={submitting}
              onAddToExisting={(d) => void addToExisting(d)}
              onRegisterAnyway={() => void submit(true)}
              steps={steps}
            />
            {outcome && <RegistrationResult {...outcome} added={added} onAnother={reset} />}
          </div>
        </section>
      </div>
    </main>
  );
}
