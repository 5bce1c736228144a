/**
 * Loads the face models once per process on the tfjs wasm backend:
 * Human (blazeface detector + facemesh, for detection and alignment) and face-api's 128-d
 * ResNet descriptor (docs/decisions/010-face-models.md explains the combination).
 *
 * The packages are loaded with a require built at run time from the project root, so the Next
 * bundler never sees them; Node's fetch cannot read file:// URLs, so a tfjs load router reads
 * Human's model files from disk.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TF from '@tensorflow/tfjs';
import type { Config, Human } from '@vladmandic/human';
import type * as FaceApi from '@vladmandic/face-api';

export type Tf = typeof TF;
export type FaceApiModule = typeof FaceApi;

export interface FaceModels {
  tf: Tf;
  human: Human;
  faceapi: FaceApiModule;
  /** Identifies the embedding space; stored with every embedding. */
  modelVersion: string;
  dispose(): void;
}

export const FACE_MODEL_VERSION = 'human-mesh-align+faceapi-resnet128@1';

function runtimeRequire(): NodeRequire {
  // Built from the working directory at run time: not statically analysable by the bundler.
  return createRequire(path.join(process.cwd(), 'package.json'));
}

function packageRoot(req: NodeRequire, name: string): string {
  // The packages' exports maps hide package.json; climb from the resolved main file instead.
  let dir = path.dirname(req.resolve(name));
  while (path.basename(dir) !== name.split('/').pop()) dir = path.dirname(dir);
  return dir;
}

let routerInstalled = false;

/** A tfjs load router for `file://` model URLs: model.json plus its weight shards from disk. */
function installFileRouter(tf: Tf): void {
  if (routerInstalled) return;
  routerInstalled = true;
  tf.io.registerLoadRouter(((url: string | string[]) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const jsonPath = url.slice('file://'.length);
    return {
      load: async () => {
        const modelJson = JSON.parse(readFileSync(jsonPath, 'utf8')) as TF.io.ModelJSON;
        return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
          const specs: TF.io.WeightsManifestEntry[] = [];
          const parts: Buffer[] = [];
          for (const group of manifest) {
            specs.push(...group.weights);
            for (const p of group.paths) parts.push(readFileSync(path.join(path.dirname(jsonPath), p)));
          }
          const all = Buffer.concat(parts);
          return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
        });
      },
    };
  }) as Parameters<Tf['io']['registerLoadRouter']>[0]);
}

export function humanConfig(modelDir: string, wasmDir: string): Partial<Config> {
  return {
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: `file://${modelDir}/`,
    debug: false,
    cacheModels: false,
    // Still photos, not video: never reuse a previous frame's result.
    cacheSensitivity: 0,
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 20, minConfidence: 0.2, iouThreshold: 0.1, return: false, skipFrames: 0, skipTime: 0 },
      mesh: { enabled: true },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    filter: { enabled: false },
  } as Partial<Config>;
}

export async function loadFaceModels(): Promise<FaceModels> {
  const req = runtimeRequire();
  const tf = req('@tensorflow/tfjs') as Tf;
  const wasm = req('@tensorflow/tfjs-backend-wasm') as { setWasmPaths: (p: string) => void };
  const wasmDir = path.join(packageRoot(req, '@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep;
  const humanRoot = packageRoot(req, '@vladmandic/human');
  const faceapiRoot = packageRoot(req, '@vladmandic/face-api');

  installFileRouter(tf);
  wasm.setWasmPaths(wasmDir);
  if (tf.getBackend() !== 'wasm') {
    await tf.setBackend('wasm');
    await tf.ready();
  }

  const HumanModule = req(path.join(humanRoot, 'dist', 'human.node-wasm.js')) as { Human: new (c: Partial<Config>) => Human };
  const faceapi = req(path.join(faceapiRoot, 'dist', 'face-api.node-wasm.js')) as FaceApiModule;

  const human = new HumanModule.Human(humanConfig(path.join(humanRoot, 'models'), wasmDir));
  await human.load();
  await faceapi.nets.faceRecognitionNet.loadFromDisk(path.join(faceapiRoot, 'model'));

  return {
    tf,
    human,
    faceapi,
    modelVersion: FACE_MODEL_VERSION,
    dispose() {
      faceapi.nets.faceRecognitionNet.dispose();
      for (const model of Object.values(human.models.models ?? {})) {
        (model as { dispose?: () => void } | null)?.dispose?.();
      }
    },
  };
}
