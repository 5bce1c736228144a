/**
 * Module Worker that runs all three moderation models and the ensemble in the browser, with the
 * server's own code: `moderate()` from lib/moderation/moderate.ts (preprocess, batching, rounding,
 * ensemble), the toxicity tokeniser/post-processing from toxicity-core.ts, the sexism model built
 * from the same artifact JSON, and the same rules engine. Only the ONNX runtime differs:
 * onnxruntime-web (WebGPU or wasm) instead of onnxruntime-node.
 *
 * Protocol (moderation-protocol.ts): `{type:'load'}` -> `loading` then `ready`|`error`;
 * `{type:'moderate', id, texts}` -> `result`|`error` with the same id. Every reply names the backend.
 *
 * onnxruntime-web is not bundled: it is `import()`ed at run time from /ort/ (served unmodified
 * from node_modules by app/ort/[file]/route.ts), so the bundler never touches its wasm loader.
 * See docs/decisions/004-browser-inference.md.
 */
import type * as Ort from 'onnxruntime-web';
import { moderate } from '@/lib/moderation/moderate';
import type { LoadedModels, ToxicityRuntime } from '@/lib/moderation/model-registry';
import { createRulesEngine } from '@/lib/moderation/rules';
import { createSexismModel } from '@/lib/moderation/sexism/sexism-model';
import { parseSexismArtifact } from '@/lib/moderation/sexism/sexism-artifact';
import {
  createToxicityTokenizer,
  encodeBatch,
  parseToxicityConfig,
  postprocess,
  toxicityThresholds,
} from '@/lib/moderation/toxicity/toxicity-core';
import type { Preprocessed } from '@/lib/moderation/preprocess';
import { SEXISM_VERSION, TOXICITY_VERSION, type ToxicityScores } from '@/lib/moderation/types';
import type { Backend, BackendPreference, WorkerRequest, WorkerResponse } from './moderation-protocol';

type OrtModule = typeof Ort;

declare const self: DedicatedWorkerGlobalScope;

/** Same default as the server (TOXICITY_MAX_BATCH). */
const MAX_BATCH = 64;
const MODELS_URL = '/models';
const ORT_URL = '/ort/';
/** ORT builds served by /ort/: CPU-only (14 MB wasm) or WebGPU + CPU (27 MB wasm). */
const ORT_BUILD: Record<Backend, string> = { wasm: 'ort.wasm.min.mjs', webgpu: 'ort.webgpu.min.mjs' };

const post = (message: WorkerResponse) => self.postMessage(message);
const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function fetchOk(path: string): Promise<Response> {
  const res = await fetch(new URL(path, self.location.origin));
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
  return res;
}
const fetchJson = async (path: string): Promise<unknown> => (await fetchOk(path)).json();

interface GpuAdapterLike {
  info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
  /** Older Chromium exposed this on the adapter itself. */
  isFallbackAdapter?: boolean;
}
interface GpuLike {
  requestAdapter(): Promise<GpuAdapterLike | null>;
}

interface AdapterProbe {
  available: boolean;
  /** A software adapter (SwiftShader): WebGPU on the CPU, slower than wasm. */
  fallback: boolean;
  description: string;
}

/** Whether WebGPU hands out an adapter (headless Chromium needs --enable-unsafe-webgpu). */
async function probeWebGpu(): Promise<AdapterProbe> {
  // Typed locally: the global WebGPU typings vary with whichever @webgpu/types version is installed.
  const gpu = (self.navigator as unknown as { gpu?: GpuLike }).gpu;
  if (!gpu) return { available: false, fallback: false, description: 'navigator.gpu is missing' };
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return { available: false, fallback: false, description: 'requestAdapter() returned null' };
    const info = adapter.info ?? {};
    const fallback = info.isFallbackAdapter === true || adapter.isFallbackAdapter === true;
    const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unnamed adapter';
    return { available: true, fallback, description: fallback ? `${name} (software fallback)` : name };
  } catch (err) {
    return { available: false, fallback: false, description: `requestAdapter() failed: ${errorMessage(err)}` };
  }
}

async function importOrt(build: Backend): Promise<OrtModule> {
  const base = new URL(ORT_URL, self.location.origin).href;
  const ort = (await import(/* webpackIgnore: true */ `${base}${ORT_BUILD[build]}`)) as OrtModule;
  // The glue .mjs and .wasm of this build come from the same folder.
  ort.env.wasm.wasmPaths = base;
  // Multi-threaded wasm needs SharedArrayBuffer, i.e. a cross-origin isolated page (COOP/COEP),
  // which this app does not set; one thread is also plenty for this small encoder. We are already
  // off the main thread, so ORT's own proxy worker would only add a hop.
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.logLevel = 'error';
  return ort;
}

interface Loaded {
  models: LoadedModels;
  backend: Backend;
  fallbackReason?: string;
  adapter?: string;
}

interface BackendChoice {
  backend: Backend;
  fallbackReason?: string;
  adapter?: string;
}

async function chooseBackend(preference: BackendPreference): Promise<BackendChoice> {
  if (preference === 'wasm') return { backend: 'wasm' };
  const probe = await probeWebGpu();
  let fallbackReason: string | undefined;
  if (!probe.available) fallbackReason = `no WebGPU adapter: ${probe.description}`;
  else if (probe.fallback && preference === 'auto') {
    // A software adapter runs the shaders on the CPU, far slower than the wasm kernels.
    fallbackReason = `only a software WebGPU adapter (${probe.description}); wasm is faster`;
  }
  if (fallbackReason === undefined) return { backend: 'webgpu', adapter: probe.description };
  if (preference === 'webgpu') {
    // Asked for WebGPU explicitly (tests, benchmarks): fail rather than silently measure wasm.
    throw new Error(`WebGPU requested but unavailable: ${fallbackReason}`);
  }
  return { backend: 'wasm', fallbackReason };
}

async function createToxicity(
  preference: BackendPreference,
  onBackend: (backend: Backend) => void,
): Promise<{ runtime: ToxicityRuntime } & BackendChoice> {
  const choice = await chooseBackend(preference);
  let { backend, fallbackReason } = choice;
  onBackend(backend);

  const dir = `${MODELS_URL}/${TOXICITY_VERSION}`;
  const [ort, tokenizerJson, tokenizerConfig, rawConfig, modelBytes] = await Promise.all([
    importOrt(backend),
    fetchJson(`${dir}/tokenizer.json`),
    fetchJson(`${dir}/tokenizer_config.json`),
    fetchJson(`${dir}/config.json`),
    fetchOk(`${dir}/model_quantized.onnx`).then(async (r) => new Uint8Array(await r.arrayBuffer())),
  ]);
  const config = parseToxicityConfig(rawConfig);
  const tokenizer = createToxicityTokenizer(tokenizerJson as object, tokenizerConfig as object);

  // Severity 3 (error): ORT's native logger otherwise prints partitioning notices (int8 and
  // shape ops placed on the CPU under WebGPU) through console.error.
  const common = { logSeverityLevel: 3 } as const;
  let session: Ort.InferenceSession;
  if (backend === 'webgpu') {
    try {
      session = await ort.InferenceSession.create(modelBytes, { ...common, executionProviders: ['webgpu'] });
    } catch (err) {
      if (preference === 'webgpu') throw new Error(`WebGPU session failed: ${errorMessage(err)}`);
      // The WebGPU build also carries the CPU provider, so fall back without a second download.
      fallbackReason = `WebGPU session failed: ${errorMessage(err)}`;
      backend = 'wasm';
      onBackend(backend);
      session = await ort.InferenceSession.create(modelBytes, { ...common, executionProviders: ['wasm'] });
    }
  } else {
    session = await ort.InferenceSession.create(modelBytes, { ...common, executionProviders: ['wasm'] });
  }
  const inputs = new Set(session.inputNames);
  for (const name of ['input_ids', 'attention_mask']) {
    if (!inputs.has(name)) throw new Error(`toxicity model has no input "${name}" (inputs: ${session.inputNames.join(', ')})`);
  }
  const outputName = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0]!;

  const score = async (texts: readonly Preprocessed[]): Promise<ToxicityScores[]> => {
    const batches = encodeBatch(tokenizer, texts, config.max_length, MAX_BATCH);
    const outputs: Float32Array[] = [];
    for (const b of batches) {
      const feeds = {
        input_ids: new ort.Tensor('int64', b.inputIds, [b.batchSize, b.seqLen]),
        attention_mask: new ort.Tensor('int64', b.attentionMask, [b.batchSize, b.seqLen]),
      };
      const result = await session.run(feeds);
      const out = result[outputName]!;
      outputs.push(Float32Array.from((await out.getData()) as Float32Array));
      for (const t of Object.values(result)) t.dispose();
    }
    return postprocess(batches, outputs, texts.length, config);
  };

  return {
    backend,
    fallbackReason,
    adapter: backend === 'webgpu' ? choice.adapter : undefined,
    runtime: {
      version: TOXICITY_VERSION,
      thresholds: toxicityThresholds(config),
      score,
      dispose: () => session.release(),
    },
  };
}

async function load(preference: BackendPreference): Promise<Loaded> {
  const started = performance.now();
  let backend: Backend = preference === 'webgpu' ? 'webgpu' : 'wasm';
  const announce = (b: Backend) => {
    backend = b;
    post({ status: 'loading', backend: b, message: `loading models (${b})` });
  };
  try {
    const [toxicity, sexismArtifact] = await Promise.all([
      createToxicity(preference, announce),
      fetchJson(`${MODELS_URL}/${SEXISM_VERSION}/model.json`),
    ]);
    const sexism = createSexismModel(parseSexismArtifact(sexismArtifact, `/models/${SEXISM_VERSION}/model.json`));
    const rules = await createRulesEngine();
    const models: LoadedModels = {
      sexism,
      toxicity: toxicity.runtime,
      rules,
      policy: { sexismThreshold: sexism.threshold, toxicityThresholds: toxicity.runtime.thresholds },
    };
    // Warm-up: the first run allocates kernels and buffers; keep it out of the first user timing.
    await moderate(models, ['warm-up']);
    const loaded: Loaded = { models, backend: toxicity.backend, fallbackReason: toxicity.fallbackReason, adapter: toxicity.adapter };
    post({
      status: 'ready',
      backend: loaded.backend,
      loadMs: Math.round(performance.now() - started),
      ...(loaded.fallbackReason ? { fallbackReason: loaded.fallbackReason } : {}),
      ...(loaded.adapter ? { adapter: loaded.adapter } : {}),
    });
    return loaded;
  } catch (err) {
    post({ status: 'error', backend, message: `model load failed: ${errorMessage(err)}` });
    throw err;
  }
}

let loading: Promise<Loaded> | undefined;
// ORT sessions do not accept overlapping run() calls; requests are answered one after another.
let queue: Promise<unknown> = Promise.resolve();

function ensureLoaded(preference: BackendPreference = 'auto'): Promise<Loaded> {
  loading ??= load(preference);
  return loading;
}

async function handleModerate(id: number, texts: string[], explain: boolean): Promise<void> {
  let loaded: Loaded;
  try {
    loaded = await ensureLoaded();
  } catch (err) {
    post({ status: 'error', id, message: `models not loaded: ${errorMessage(err)}` });
    return;
  }
  try {
    const started = performance.now();
    const results = await moderate(loaded.models, texts, explain ? { explain: true } : {});
    post({ status: 'result', id, backend: loaded.backend, ms: Math.round(performance.now() - started), results });
  } catch (err) {
    post({ status: 'error', id, backend: loaded.backend, message: errorMessage(err) });
  }
}

self.addEventListener('message', (event: MessageEvent<WorkerRequest>) => {
  const msg = event.data;
  if (msg.type === 'load') {
    // Failures are reported by load() itself.
    ensureLoaded(msg.backend ?? 'auto').catch(() => undefined);
  } else if (msg.type === 'moderate') {
    if (!Array.isArray(msg.texts) || !msg.texts.every((t) => typeof t === 'string')) {
      post({ status: 'error', id: msg.id, message: 'texts must be an array of strings' });
      return;
    }
    queue = queue.then(() => handleModerate(msg.id, msg.texts, msg.explain === true));
  }
});
