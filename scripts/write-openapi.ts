/** `npm run openapi`: write the OpenAPI document generated from the zod contracts to docs/openapi.json. */
import { writeFileSync } from 'node:fs';
import { loadEnv } from '@/lib/env';
import { API_VERSION } from '@/lib/contracts/moderation';
import { buildOpenApiDocument } from '@/lib/contracts/openapi';

const e = loadEnv();
const doc = buildOpenApiDocument({ maxTextChars: e.MAX_TEXT_CHARS, maxBatchItems: e.MAX_BATCH_ITEMS }, API_VERSION);
writeFileSync('docs/openapi.json', `${JSON.stringify(doc, null, 2)}\n`);
console.log(`docs/openapi.json: ${Object.keys(doc.paths ?? {}).length} paths`);
