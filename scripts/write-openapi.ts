/** `npm run openapi`: write the OpenAPI document generated from the zod contracts to docs/openapi.json. */
import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, openApiFileText } from './lib/openapi-file';

const text = openApiFileText();
writeFileSync(OPENAPI_FILE, text);
console.log(`${OPENAPI_FILE}: ${Object.keys((JSON.parse(text) as { paths?: object }).paths ?? {}).length} paths`);
