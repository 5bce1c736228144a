/**
 * Next.js bundles each route (and instrumentation.ts) separately, so one process can hold several
 * copies of an error class. A singleton created in one bundle (the model registry, the rate
 * limiter, the database) then throws errors that fail `instanceof` in another bundle's error
 * mapper, and a 429 or 503 would turn into a 500. Errors that cross bundles therefore carry a
 * brand under a global symbol, and are recognised by it.
 */
const brandOf = (name: string) => Symbol.for(`vigil.error.${name}`);

export function brandError(err: Error, name: string): void {
  Object.defineProperty(err, brandOf(name), { value: true, enumerable: false });
}

export function hasErrorBrand(err: unknown, name: string): boolean {
  return typeof err === 'object' && err !== null && brandOf(name) in err;
}
