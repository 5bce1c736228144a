/**
 * A dependency the process needs is not there (yet): answered 503 with Retry-After by both API
 * families, never 500. Branded like every error that crosses Next.js route bundles (error-brand.ts).
 * Each says which dependency it is, so a client and a load balancer can tell "the database is
 * down" (DATABASE_UNAVAILABLE) from "the face models are still loading" (SERVICE_UNAVAILABLE).
 */
import { brandError, hasErrorBrand } from './error-brand';

function unavailableMessage(what: string, cause: unknown): string {
  return `${what} unavailable: ${cause instanceof Error ? cause.message : String(cause)}`;
}

/** The database could not be opened or migrated (reviews, memory bank, rate-limit counters alike). */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(unavailableMessage('database', cause));
    this.name = 'DatabaseUnavailableError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is DatabaseUnavailableError {
    return hasErrorBrand(err, 'DatabaseUnavailableError');
  }
}

/** The face models could not be loaded (in this thread or in an inference worker). */
export class FaceModelsUnavailableError extends Error {
  /**
   * @param retryAfterS when the models are expected back, in whole seconds (the face process's
   *   supervisor knows its next restart); answered as Retry-After. Undefined: nobody knows.
   */
  constructor(
    cause: unknown,
    readonly retryAfterS?: number,
  ) {
    super(unavailableMessage('face models', cause));
    this.name = 'FaceModelsUnavailableError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is FaceModelsUnavailableError {
    return hasErrorBrand(err, 'FaceModelsUnavailableError');
  }
}

/** A moderation model is not loaded: moderation answers 503 instead of crashing. */
export class ModelsUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelsUnavailableError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is ModelsUnavailableError {
    return hasErrorBrand(err, 'ModelsUnavailableError');
  }
}

/** Seconds a client refused because every inference worker is busy is asked to wait. */
export const BUSY_RETRY_AFTER_S = 5;

/** Every inference worker is working and the queue is full (lib/runtime/inference-pool.ts). */
export class InferenceBusyError extends Error {
  constructor() {
    super('The server is busy: every inference worker is working and the queue is full. Retry later.');
    this.name = 'InferenceBusyError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is InferenceBusyError {
    return hasErrorBrand(err, 'InferenceBusyError');
  }
}
