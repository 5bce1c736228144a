/**
 * Messages between the page (`moderation-client.ts`) and the module Worker
 * (`moderation-worker.ts`). Types only, so importing this file costs the page nothing.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';

/** The execution provider the toxicity transformer actually runs on. */
export type Backend = 'webgpu' | 'wasm';
/**
 * `auto`: WebGPU when `navigator.gpu` yields a hardware adapter and a session builds on it, else
 * wasm. `webgpu` also accepts a software (fallback) adapter, and fails rather than fall back.
 */
export type BackendPreference = 'auto' | Backend;

export type WorkerRequest =
  | { type: 'load'; backend?: BackendPreference }
  /** `explain` adds `explanations` (rule spans, sexism n-grams) as with the server's `explain: true`. */
  | { type: 'moderate'; id: number; texts: string[]; explain?: boolean };

export type WorkerResponse =
  | { status: 'loading'; backend: Backend; message: string }
  | {
      status: 'ready';
      backend: Backend;
      /** Milliseconds from the load request to a usable session (fetch + compile + warm-up). */
      loadMs: number;
      /** Set when WebGPU was wanted but the Worker fell back to wasm, saying why. */
      fallbackReason?: string;
      /** The WebGPU adapter in use (vendor, architecture), when the backend is `webgpu`. */
      adapter?: string;
    }
  | {
      status: 'result';
      id: number;
      backend: Backend;
      /** Milliseconds the Worker spent on this request (all three models and the ensemble). */
      ms: number;
      /** Same shape and order as the server's `POST /v1/moderate/batch` `results`. */
      results: ModerationResponse[];
    }
  | { status: 'error'; id?: number; backend?: Backend; message: string };
