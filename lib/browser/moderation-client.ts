/**
 * A small promise API over the moderation Worker, for React components:
 *
 *   const client = createModerationClient();        // in useEffect: browser only
 *   const { backend, loadMs } = await client.ready;
 *   const { results, ms } = await client.moderate(['some text']);
 *   client.dispose();                                // in the effect's cleanup
 *
 * One Worker (and one ONNX session) per client; `results` has the shape of the server's
 * `POST /v1/moderate/batch` results.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { Backend, BackendPreference, WorkerRequest, WorkerResponse } from './moderation-protocol';

export type { Backend, BackendPreference } from './moderation-protocol';

export interface ReadyInfo {
  backend: Backend;
  loadMs: number;
  /** Why WebGPU was not used, when it was wanted. */
  fallbackReason?: string;
  /** The WebGPU adapter, when the backend is `webgpu`. */
  adapter?: string;
}

export interface BrowserModerationResult {
  results: ModerationResponse[];
  backend: Backend;
  /** Time spent in the Worker for this call. */
  ms: number;
}

export interface ModerationClient {
  /** Resolves once all three models are loaded and warmed up; rejects if loading failed. */
  readonly ready: Promise<ReadyInfo>;
  /** The backend in use (or being loaded); undefined before the Worker has chosen. */
  readonly backend: Backend | undefined;
  /** `explain`: add rule spans and sexism n-grams, as the server's `explain: true` does. */
  moderate(texts: string[], options?: { explain?: boolean }): Promise<BrowserModerationResult>;
  /** Terminates the Worker; pending calls reject. */
  dispose(): void;
}

export interface ModerationClientOptions {
  /** Default `auto`: WebGPU on a hardware adapter, wasm otherwise (see moderation-protocol.ts). */
  backend?: BackendPreference;
  /** Every status message from the Worker, e.g. to show `loading (webgpu)`. */
  onStatus?: (message: WorkerResponse) => void;
}

export function createModerationClient(options: ModerationClientOptions = {}): ModerationClient {
  // The literal `new URL(..., import.meta.url)` is what lets the bundler emit the Worker chunk.
  const worker = new Worker(new URL('./moderation-worker.ts', import.meta.url), {
    type: 'module',
    name: 'vigil-moderation',
  });
  const send = (message: WorkerRequest) => worker.postMessage(message);

  let backend: Backend | undefined;
  let disposed = false;
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: BrowserModerationResult) => void; reject: (e: Error) => void }>();

  let settleReady!: { resolve: (info: ReadyInfo) => void; reject: (e: Error) => void };
  const ready = new Promise<ReadyInfo>((resolve, reject) => (settleReady = { resolve, reject }));
  // Callers that only use moderate() must not see an unhandled rejection from `ready`.
  ready.catch(() => undefined);

  const failAll = (error: Error) => {
    settleReady.reject(error);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };

  worker.addEventListener('message', (event: MessageEvent<WorkerResponse>) => {
    const msg = event.data;
    if (msg.backend) backend = msg.backend;
    options.onStatus?.(msg);
    if (msg.status === 'ready') {
      const { backend: b, loadMs, fallbackReason, adapter } = msg;
      settleReady.resolve({ backend: b, loadMs, ...(fallbackReason ? { fallbackReason } : {}), ...(adapter ? { adapter } : {}) });
    } else if (msg.status === 'result') {
      pending.get(msg.id)?.resolve({ results: msg.results, backend: msg.backend, ms: msg.ms });
      pending.delete(msg.id);
    } else if (msg.status === 'error') {
      const error = new Error(msg.message);
      if (msg.id === undefined) settleReady.reject(error);
      else {
        pending.get(msg.id)?.reject(error);
        pending.delete(msg.id);
      }
    }
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    failAll(new Error(`moderation worker failed: ${event.message || 'script error'}`));
  });

  send({ type: 'load', backend: options.backend ?? 'auto' });

  return {
    ready,
    get backend() {
      return backend;
    },
    moderate(texts, moderateOptions) {
      if (disposed) return Promise.reject(new Error('moderation client disposed'));
      const id = nextId++;
      return new Promise<BrowserModerationResult>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ type: 'moderate', id, texts, ...(moderateOptions?.explain ? { explain: true } : {}) });
      });
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      worker.terminate();
      failAll(new Error('moderation client disposed'));
    },
  };
}
