/** Webcam helpers shared by /register and /recognize. */

export type CameraFailure = 'unsupported' | 'denied' | 'not-found' | 'busy' | 'other';

export class CameraError extends Error {
  constructor(
    readonly reason: CameraFailure,
    message: string,
  ) {
    super(message);
    this.name = 'CameraError';
  }
}

export const CAMERA_HELP: Record<CameraFailure, string> = {
  unsupported: 'This browser cannot use a camera here (it needs HTTPS or localhost).',
  denied: 'Camera permission was denied. Allow the camera in the address bar, or upload photos instead.',
  'not-found': 'No camera was found. Connect one, or upload photos instead.',
  busy: 'The camera is in use by another application.',
  other: 'The camera could not be started.',
};

export async function startCamera(video: HTMLVideoElement): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraError('unsupported', CAMERA_HELP.unsupported);
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: 'user' },
      audio: false,
    });
  } catch (err) {
    const name = (err as DOMException).name;
    const reason: CameraFailure =
      name === 'NotAllowedError' || name === 'SecurityError'
        ? 'denied'
        : name === 'NotFoundError' || name === 'OverconstrainedError'
          ? 'not-found'
          : name === 'NotReadableError'
            ? 'busy'
            : 'other';
    throw new CameraError(reason, CAMERA_HELP[reason]);
  }
  video.srcObject = stream;
  video.muted = true;
  video.playsInline = true;
  await video.play();
  if (video.readyState < 2 || video.videoWidth === 0) {
    await new Promise<void>((resolve) => video.addEventListener('loadeddata', () => resolve(), { once: true }));
  }
  return stream;
}

export function stopCamera(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((t) => t.stop());
}

/** The current frame at the camera's own resolution, as a JPEG. */
export function captureFrame(video: HTMLVideoElement, quality = 0.92): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx || canvas.width === 0) return Promise.reject(new Error('no video frame yet'));
  ctx.drawImage(video, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('could not encode the frame'))), 'image/jpeg', quality));
}
