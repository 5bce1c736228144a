/**
 * An expensive thing loaded once (model weights, a database pool): the *promise* is stored, so
 * concurrent first callers share one load. A load that fails is forgotten, so the next caller
 * retries instead of every later request failing with the first error (a database that was
 * still starting, a model file being written).
 */
export interface CachedPromise<T> {
  /** The loaded value; starts the load on first call and after a failed one. */
  get(): Promise<T>;
  /** The load in flight or done, without starting one (disposal). */
  peek(): Promise<T> | undefined;
}

export function cachedPromise<T>(load: () => Promise<T>): CachedPromise<T> {
  let current: Promise<T> | undefined;
  return {
    get() {
      if (current) return current;
      let p: Promise<T>;
      try {
        p = load();
      } catch (err) {
        p = Promise.reject(err);
      }
      current = p;
      p.catch(() => {
        if (current === p) current = undefined;
      });
      return p;
    },
    peek: () => current,
  };
}
