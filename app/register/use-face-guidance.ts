'use client';
/**
 * Live face guidance for the camera preview: loads the page's one face detector (Human) once,
 * analyses a frame every GUIDE_INTERVAL_MS while the camera is live, turns it into the quality
 * checks that gate the capture button, and draws the face overlay. `ensureGuide` hands the same
 * detector to the upload check.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { loadFaceGuide, type FaceGuide } from '@/lib/browser/face-guide';
import { allPass, evaluateFrame, type Check, type GuideFace } from '@/lib/browser/face-quality';

/** Pause between guidance frames: a modest rate keeps the page responsive on slow machines. */
const GUIDE_INTERVAL_MS = 250;

interface GuideInfo {
  backend: string;
  loadMs: number;
  /** Time of the last frame's analysis. */
  ms?: number;
}

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

export function useFaceGuidance(
  cameraOn: boolean,
  videoRef: RefObject<HTMLVideoElement | null>,
  overlayRef: RefObject<HTMLCanvasElement | null>,
) {
  const guideRef = useRef<FaceGuide | null>(null);
  const guideLoadRef = useRef<Promise<FaceGuide> | null>(null);
  const [message, setMessage] = useState('Loading face guidance…');
  const [info, setInfo] = useState<GuideInfo | undefined>();
  const [checks, setChecks] = useState<Check[]>([]);

  /** The page's one face detector (Human): the live guidance and the upload check share it. */
  const ensureGuide = useCallback((): Promise<FaceGuide> => {
    if (guideRef.current) return Promise.resolve(guideRef.current);
    if (!guideLoadRef.current) {
      const forced = new URLSearchParams(window.location.search).get('facebackend');
      const loading = loadFaceGuide(forced, (m) => setMessage(m)).then((guide) => {
        guideRef.current = guide;
        setInfo({ backend: guide.backend, loadMs: guide.loadMs });
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
          setInfo((g) => (g ? { ...g, ms } : g));
          if (overlayRef.current) drawOverlay(overlayRef.current, video, faces, allPass(c));
        }
      } catch (err) {
        setMessage(`Face guidance stopped: ${(err as Error).message}`);
        return;
      }
      timer = setTimeout(() => void loop(), GUIDE_INTERVAL_MS);
    };

    (async () => {
      try {
        if (!guideRef.current) setMessage('Loading face guidance…');
        await ensureGuide();
        if (!live) return;
        setMessage('');
        void loop();
      } catch (err) {
        if (live) setMessage(`Face guidance is unavailable (${(err as Error).message}). Upload photos instead.`);
      }
    })();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [cameraOn, videoRef, overlayRef, ensureGuide]);

  return { message, info, checks, ready: allPass(checks), ensureGuide };
}
