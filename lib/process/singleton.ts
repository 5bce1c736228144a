/**
 * Process-wide instances (docs/decisions/091-composition-root.md). Next.js evaluates a module
 * once per route bundle, and instrumentation.ts in yet another, so a module-level `let` would
 * give each bundle its own database pool, model copy or rate-limit budget. The instance lives on
 * globalThis under a well-known symbol instead, as in epic-stack's singleton.server.ts: one per
 * process, whichever bundle asks first.
 */
const keyOf = (name: string) => Symbol.for(`vigil.${name}`);

type Slots = Record<symbol, { value: unknown } | undefined>;
const slots = () => globalThis as unknown as Slots;

/** The process's `name` instance, made by `factory` on first use (an `undefined` result is kept too). */
export function singleton<T>(name: string, factory: () => T): T {
  const key = keyOf(name);
  const slot = slots()[key];
  if (slot) return slot.value as T;
  const value = factory();
  slots()[key] = { value };
  return value;
}

/** Forgets `name` (tests, shutdown) and returns what it held, for the caller to dispose of. */
export function dropSingleton<T>(name: string): T | undefined {
  const key = keyOf(name);
  const slot = slots()[key];
  slots()[key] = undefined;
  return slot?.value as T | undefined;
}
