/**
 * Module Worker that runs all three moderation models and the ensemble in the browser, with the
 * server's own code: `moderate()` from lib/moderation/moderate.ts (preprocess, batching, rounding,
 * ensemble), the toxicity scoring loop from create-toxicity-runtime.ts, the sexism model built
 * from the same artifact JSON, and the same rules engine. The toxicity model is the same Hugging
 * Face folder, loaded by the same library (transformers.js `AutoTokenizer` +
 * `AutoModelForSequenceClassification`); only its ONNX runtime differs: onnxruntime-web (WebGPU
 * or wasm) instead of onnxruntime-node.
 *
 * Protocol (moderation-protocol.ts): `{type:'load'}` -> `loading` then `ready`|`error`;
 * `{type:'moderate', id, texts}` -> `result`|`error` with the same id. Every reply names the backend.
 *
 * transformers.js is not bundled: its self-contained browser build is `import()`ed at run time
 * from /ort/ (served unmodified from node_modules by app/ort/[file]/route.ts, with the wasm of the
 * onnxruntime-web version inside it), so the bundler never touches ORT's wasm loader and nothing
 * comes from a CDN. See docs/decisions/004-browser-inference.md and 070-transformers-js-runtime.md.
 */
import type * as Transformers from '@huggingface/transformers';
import { moderate } from '@/lib/moderation/moderate';
import type { LoadedModels, ToxicityRuntime } from '@/lib/moderation/model-registry';
import { shippedPolicy } from '@/lib/moderation/ensemble';
import { createRulesEngine } from '@/lib/moderation/rules';
import { createSexismModel } from '@/lib/moderation/sexism/sexism-model';
import { parseSexismArtifact } from '@/lib/moderation/sexism/sexism-artifact';
import { createToxicityRuntime } from '@/lib/moderation/toxicity/create-toxicity-runtime';
import { lexicalStackForFolder } from '@/lib/moderation/toxicity/lexical-stack';
import { parseToxicityConfig } from '@/lib/moderation/toxicity/toxicity-config';
import { SEXISM_VERSION, TOXICITY_VERSION } from '@/lib/moderation/types';
import type { Backend, BackendPreference, WorkerRequest, WorkerResponse } from './moderation-protocol';

type TransformersModule = typeof Transformers;

declare const self: DedicatedWorkerGlobalScope;

/** Same default as the server (TOXICITY_MAX_BATCH). */
const MAX_BATCH = 8;
const MODELS_URL = '/models';
const ORT_URL = '/ort/';
/** onnxruntime-web wasm per backend: CPU only (14 MB) or WebGPU + CPU kernels (27 MB). */
const ORT_WASM: Record<Backend, string> = { wasm: 'ort-wasm-simd-threaded', webgpu: 'ort-wasm-simd-threaded.asyncify' };

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

async function importTransformers(backend: Backend): Promise<TransformersModule> {
  const base = new URL(ORT_URL, self.location.origin).href;
  const t = (await import(/* webpackIgnore: true */ `${base}transformers.min.js`)) as TransformersModule;
  // Model files come from this origin's /models/ (app/models/[...path]), never from the Hub. The
  // path must stay relative: transformers.js treats an http(s) URL here as remote and skips it.
  t.env.allowRemoteModels = false;
  t.env.allowLocalModels = true;
  t.env.localModelPath = `${MODELS_URL}/`;
  // The HTTP cache already keeps the files (ETag + max-age, decision 004). The wasm cache would
  // import ORT's loader from a blob: URL, which the Content-Security-Policy does not allow.
  t.env.useBrowserCache = false;
  t.env.useWasmCache = false;
  const wasm = t.env.backends.onnx.wasm!;
  wasm.wasmPaths = { mjs: `${base}${ORT_WASM[backend]}.mjs`, wasm: `${base}${ORT_WASM[backend]}.wasm` };
  // Multi-threaded wasm needs SharedArrayBuffer, i.e. a cross-origin isolated page (COOP/COEP),
  // which this app does not set; one thread is also plenty for this small encoder. We are already
  // off the main thread, so ORT's own proxy worker would only add a hop.
  wasm.numThreads = 1;
  wasm.proxy = false;
  t.env.logLevel = t.LogLevel.ERROR;
  return t;
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

  const [t, rawConfig] = await Promise.all([importTransformers(backend), fetchJson(`${MODELS_URL}/${TOXICITY_VERSION}/config.json`)]);
  const config = parseToxicityConfig(rawConfig);
  // The folder's lexical stack, when it serves one: the same file and code as the server's.
  const stackPath = config.lexicalStack && `${MODELS_URL}/${TOXICITY_VERSION}/${config.lexicalStack.file}`;
  const lexicalStackLoad = stackPath ? fetchJson(stackPath).then((raw) => lexicalStackForFolder(raw, config, stackPath)) : undefined;
  const loadModel = (device: Backend) =>
    t.AutoModelForSequenceClassification.from_pretrained(TOXICITY_VERSION, {
      local_files_only: true,
      subfolder: 'onnx',
      model_file_name: 'model',
      dtype: 'q8',
      device,
      // Severity 3 (error): ORT's native logger otherwise prints partitioning notices (int8 and
      // shape ops placed on the CPU under WebGPU) through console.error.
      session_options: { logSeverityLevel: 3 },
    });
  const tokenizerLoad = t.AutoTokenizer.from_pretrained(TOXICITY_VERSION, { local_files_only: true });
  let model: Transformers.PreTrainedModel;
  if (backend === 'webgpu') {
    try {
      model = await loadModel('webgpu');
    } catch (err) {
      if (preference === 'webgpu') throw new Error(`WebGPU session failed: ${errorMessage(err)}`);
      // The asyncify wasm also carries the CPU kernels, so fall back without a second download.
      fallbackReason = `WebGPU session failed: ${errorMessage(err)}`;
      backend = 'wasm';
      onBackend(backend);
      model = await loadModel('wasm');
    }
  } else {
    model = await loadModel('wasm');
  }
  const inputs: string[] = (model.sessions.model as { inputNames?: string[] } | undefined)?.inputNames ?? [];
  for (const name of ['input_ids', 'attention_mask']) {
    if (!inputs.includes(name)) throw new Error(`toxicity model has no input "${name}" (inputs: ${inputs.join(', ')})`);
  }
  const runtime = createToxicityRuntime({
    tokenizer: await tokenizerLoad,
    model,
    config,
    Tensor: t.Tensor,
    maxBatch: MAX_BATCH,
    lexicalStack: await lexicalStackLoad,
  });

  return {
    backend,
    fallbackReason,
    adapter: backend === 'webgpu' ? choice.adapter : undefined,
    runtime: runtime satisfies ToxicityRuntime,
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
      policy: shippedPolicy(sexism, toxicity.runtime),
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
