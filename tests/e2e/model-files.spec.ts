/** The allow-listed file routes the browser Worker loads from: caching, types, no traversal. */
import { expect, test } from '@playwright/test';

const FILES: Array<[string, RegExp]> = [
  ['/models/toxic_transformer_v1/onnx/model_quantized.onnx', /^application\/octet-stream/],
  // The graph's external data files (decision 185), as many as config.json counts.
  ['/models/toxic_transformer_v1/onnx/model_quantized.onnx_data', /^application\/octet-stream/],
  ['/models/toxic_transformer_v1/onnx/model_quantized.onnx_data_1', /^application\/octet-stream/],
  ['/models/toxic_transformer_v1/tokenizer.json', /^application\/json/],
  ['/models/toxic_transformer_v1/tokenizer_config.json', /^application\/json/],
  ['/models/toxic_transformer_v1/config.json', /^application\/json/],
  ['/models/sexism_lasso_v1/model.json', /^application\/json/],
  ['/ort/transformers.min.js', /^text\/javascript/],
  ['/ort/ort-wasm-simd-threaded.mjs', /^text\/javascript/],
  ['/ort/ort-wasm-simd-threaded.wasm', /^application\/wasm/],
];

test.describe('model file routes', () => {
  for (const [path, type] of FILES) {
    test(`${path} is served with cache headers and a working ETag`, async ({ request }) => {
      const res = await request.get(path);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toMatch(type);
      expect(res.headers()['cache-control']).toBe('public, max-age=86400');
      const etag = res.headers().etag;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect((await res.body()).length).toBeGreaterThan(0);

      const again = await request.get(path, { headers: { 'If-None-Match': etag! } });
      expect(again.status()).toBe(304);
      expect(again.headers().etag).toBe(etag);
      const strong = etag!.replace(/^W\//, '');
      const list = await request.get(path, { headers: { 'If-None-Match': `"other", ${strong}` } });
      expect(list.status()).toBe(304);
      const stale = await request.get(path, { headers: { 'If-None-Match': '"stale"' } });
      expect(stale.status()).toBe(200);
    });
  }

  // Anything outside the allow-list is a 404 from the route itself.
  const FORBIDDEN = [
    '/models/toxic_transformer_v1/README.md',
    '/models/toxic_transformer_v1/metrics.json',
    '/models/toxic_transformer_v1/reproduce.json',
    '/models/toxic_transformer_v1/model.onnx',
    '/models/sexism_lasso_v1/parity-fixture.json',
    '/models/toxic_transformer_v1/..%2F..%2Fpackage.json',
    '/models/..%2F..%2Fserver.mjs',
    '/models/toxic_transformer_v1/config.json%00.onnx',
    '/models/toxic_transformer_v1/CONFIG.JSON',
    '/models/constructor',
    '/models/__proto__/model.json',
    '/models/toxic_transformer_v1/model_quantized.onnx',
    '/models/toxic_transformer_v1/onnx/model.onnx',
    '/models/toxic_transformer_v1/onnx/model_quantized.onnx_data_2',
    '/models/toxic_transformer_v1/onnx/model_quantized.onnx_data_0',
    '/models/toxic_transformer_v1/model_quantized.onnx_data',
    '/ort/ort.all.min.mjs',
    '/ort/ort.wasm.min.mjs',
    '/ort/constructor',
    '/ort/transformers.js',
    '/ort/ort.wasm.min.mjs.map',
    '/ort/..%2Fpackage.json',
    '/ort/..%2F..%2Fpackage.json',
  ];
  for (const path of FORBIDDEN) {
    test(`${path} is not served`, async ({ request }) => {
      const res = await request.get(path);
      expect(res.status()).toBe(404);
      expect(await res.text()).not.toContain('"dependencies"');
    });
  }

  // Dot segments (plain or percent-encoded) are resolved before routing, so these reach some
  // other route (or none); what matters is that no file comes back.
  const NORMALISED = ['/models/%2e%2e/%2e%2e/package.json', '/models/toxic_transformer_v1/../../package.json', '/ort/%2e%2e'];
  for (const path of NORMALISED) {
    test(`${path} does not escape the allow-list`, async ({ request }) => {
      const res = await request.get(path);
      expect(res.headers()['cache-control']).not.toBe('public, max-age=86400');
      expect(await res.text()).not.toContain('"dependencies"');
    });
  }
});
