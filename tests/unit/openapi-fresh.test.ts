/**
 * The committed docs/openapi.json is the document the contracts generate (decision 096: it
 * had gone stale, without DATABASE_UNAVAILABLE in 6 places). On failure run `npm run openapi`
 * and commit the file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, openApiFileText } from '@/scripts/lib/openapi-file';

describe('docs/openapi.json', () => {
  it('is the document generated from lib/contracts (regenerate with `npm run openapi`)', () => {
    const committed: unknown = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    expect(committed, `${OPENAPI_FILE} is stale: run \`npm run openapi\` and commit it`).toEqual(JSON.parse(openApiFileText()));
  });
});
