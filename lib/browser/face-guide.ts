/**
 * Live face guidance in the browser with @vladmandic/human (blazeface + facemesh, plus antispoof
 * and liveness). Human is not bundled: its ESM build is imported at run time from /human/
 * (app/human/[...path]/route.ts), like onnxruntime-web in the moderation Worker.
 *
 * Backend: WebGPU on a hardware adapter, else WebGL on a hardware renderer, else wasm (software
 * WebGPU/WebGL, as in headless Chromium, are slower than wasm). Detection runs on the main thread
 * at a modest rate (the caller schedules it, one frame at a time), never per animation frame.
 */
import { cropStats, type CropStats, type GuideFace } from './face-quality';

export type FaceBackend = 'webgpu' | 'webgl' | 'wasm';

interface HumanFace {
  box: [number, number, number, number];
  score: number;
  faceScore?: number;
  rotation?: { angle?: { roll: number; yaw: number; pitch: number } } | null;
  real?: number;
  live?: number;
}
interface HumanInstance {
  config: { backend: string };
  load(): Promise<void>;
  init(): Promise<void>;
  warmup?(): Promise<unknown>;
  detect(input: GuideInput): Promise<{ face: HumanFace[]; error?: string | null }>;
  tf: { getBackend(): string };
}
interface HumanModule {
  Human: new (config: Record<string, unknown>) => HumanInstance;
}

/** A video frame, or a photo drawn on a canvas (the upload check, check-photo.ts). */
export type GuideInput = HTMLVideoElement | HTMLCanvasElement;

export interface FaceGuide {
  backend: FaceBackend;
  loadMs: number;
  /** Faces in one frame plus crop statistics of the largest. One call at a time runs (Human keeps per-call state). */
  analyse(input: GuideInput): Promise<{ faces: GuideFace[]; crop?: CropStats; ms: number }>;
}

const HUMAN_URL = '/human/human.esm.js';

function baseConfig(backend: FaceBackend) {
  return {
    backend,
    modelBasePath: '/human/models/',
    wasmPath: '/human/wasm/',
    wasmPlatformFetch: false,
    debug: false,
    async: true,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { enabled: true, modelPath: 'blazeface.json', rotation: false, maxDetected: 5, minConfidence: 0.4, return: false },
      mesh: { enabled: true, modelPath: 'facemesh.json' },
      attention: { enabled: false },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: true, modelPath: 'antispoof.json' },
      liveness: { enabled: true, modelPath: 'liveness.json' },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  };
}

async function hardwareWebGpu(): Promise<boolean> {
  const gpu = (
    navigator as unknown as {
      gpu?: { requestAdapter(): Promise<{ info?: { isFallbackAdapter?: boolean }; isFallbackAdapter?: boolean } | null> };
    }
  ).gpu;
  if (!gpu) return false;
  try {
    const adapter = await gpu.requestAdapter();
    return !!adapter && !(adapter.info?.isFallbackAdapter || adapter.isFallbackAdapter);
  } catch {
    return false;
  }
}

function hardwareWebGl(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return false;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return !/swiftshader|llvmpipe|software|basic render/i.test(renderer);
  } catch {
    return false;
  }
}

/** Which backends to try, best first; `?facebackend=wasm|webgl|webgpu` forces one. */
export async function backendOrder(forced?: string | null): Promise<FaceBackend[]> {
  if (forced === 'wasm' || forced === 'webgl' || forced === 'webgpu') return [forced];
  const order: FaceBackend[] = [];
  if (await hardwareWebGpu()) order.push('webgpu');
  if (hardwareWebGl()) order.push('webgl');
  order.push('wasm');
  return order;
}

let work: HTMLCanvasElement | undefined;

/** Grey 96×96 crop of the face box, for brightness and sharpness. */
function measureCrop(video: GuideInput, box: [number, number, number, number]): CropStats | undefined {
  const size = 96;
  work ??= document.createElement('canvas');
  work.width = size;
  work.height = size;
  const ctx = work.getContext('2d', { willReadFrequently: true });
  if (!ctx) return undefined;
  const [x, y, w, h] = box;
  ctx.drawImage(video, Math.max(0, x), Math.max(0, y), Math.max(1, w), Math.max(1, h), 0, 0, size, size);
  const { data } = ctx.getImageData(0, 0, size, size);
  const grey = new Uint8ClampedArray(size * size);
  for (let i = 0; i < grey.length; i++) grey[i] = 0.299 * data[i * 4]! + 0.587 * data[i * 4 + 1]! + 0.114 * data[i * 4 + 2]!;
  return cropStats(grey, size, size);
}

export async function loadFaceGuide(forced?: string | null, onStatus?: (message: string) => void): Promise<FaceGuide> {
  const started = performance.now();
  const mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ HUMAN_URL)) as HumanModule;
  const errors: string[] = [];
  for (const backend of await backendOrder(forced)) {
    try {
      onStatus?.(`loading face models (${backend})…`);
      const human = new mod.Human(baseConfig(backend));
      await human.init();
      if (human.tf.getBackend() !== backend) throw new Error(`backend ${backend} did not initialise`);
      await human.load();
      // The live guidance loop and the upload check share this one instance: queue their calls.
      let queue: Promise<unknown> = Promise.resolve();
      const analyseOne: FaceGuide['analyse'] = async (video) => {
        const t0 = performance.now();
        const result = await human.detect(video);
        const faces: GuideFace[] = result.face.map((f) => ({
          box: f.box,
          score: f.faceScore ?? f.score,
          ...(f.rotation?.angle ? { angle: f.rotation.angle } : {}),
          ...(typeof f.real === 'number' ? { real: f.real } : {}),
          ...(typeof f.live === 'number' ? { live: f.live } : {}),
        }));
        const largest = [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
        return { faces, crop: largest ? measureCrop(video, largest.box) : undefined, ms: Math.round(performance.now() - t0) };
      };
      const analyse: FaceGuide['analyse'] = (input) => {
        const run = queue.then(() => analyseOne(input));
        queue = run.catch(() => undefined);
        return run;
      };
      return { backend, loadMs: Math.round(performance.now() - started), analyse };
    } catch (err) {
      errors.push(`${backend}: ${(err as Error).message}`);
    }
  }
  throw new Error(`face models could not load (${errors.join('; ')})`);
}
