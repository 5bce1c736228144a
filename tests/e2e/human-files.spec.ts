/** The /human/ route serves Human's browser build, four face models and the tfjs wasm binaries, and nothing else. */
import { expect, test } from '@playwright/test';

test.describe('face model file routes', () => {
  test('Human and its models are served with the right types and cache headers', async ({ request }) => {
    const js = await request.get('/human/human.esm.js');
    expect(js.status()).toBe(200);
    expect(js.headers()['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers()['cache-control']).toBe('public, max-age=86400');
    for (const p of [
      '/human/models/blazeface.json',
      '/human/models/facemesh.bin',
      '/human/models/antispoof.json',
      '/human/models/liveness.bin',
      '/human/wasm/tfjs-backend-wasm-simd.wasm',
    ]) {
      expect((await request.head(p)).status(), p).toBe(200);
    }
  });

  for (const p of [
    '/human/models/faceres.json',
    '/human/human.js',
    '/human/..%2Fpackage.json',
    '/human/models/..%2F..%2Fpackage.json',
    '/human/dist/human.esm.js',
  ]) {
    test(`${p} is not served`, async ({ request }) => {
      expect((await request.get(p)).status()).toBe(404);
    });
  }
});
