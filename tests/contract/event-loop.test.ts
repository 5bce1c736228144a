/**
 * Decision 051: heavy moderation batches and face recognitions run in the inference
 * worker pool, so /v1/health keeps answering while they run. The test asserts only that health
 * answered while the heavy requests were in flight, and that each heavy request finished or was
 * refused with 503 + Retry-After; the latencies are measured by `npm run bench:event-loop`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

const faces = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
/** 100 texts of 10,000 U+FDFA: NFKC expands each character to 18, 18 million characters uncapped. */
const HEAVY_BATCH = { texts: Array.from({ length: 100 }, () => '\uFDFA'.repeat(10_000)) };

let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-event-loop-'));
  server = await startServer({
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '0',
    FACE_RATE_LIMIT_PER_MINUTE: '0',
    // 100 x 10,000 x U+FDFA is 3 MB of UTF-8.
    MAX_BODY_BYTES: String(4 * 1024 * 1024),
    REVIEW_QUEUE: 'false',
  });
});
afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Polls /v1/health one request at a time until `until` settles; counts the answers that arrived before. */
async function healthAnswersWhile(until: Promise<unknown>): Promise<number> {
  let settled = false;
  void until.finally(() => (settled = true));
  let answered = 0;
  while (!settled) {
    const res = await fetch(`${server.url}/v1/health`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    if (!settled) answered++;
  }
  return answered;
}

async function expectDoneOrBusy(res: Response) {
  expect([200, 503]).toContain(res.status);
  if (res.status === 503) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  return res.status === 200 ? res.json() : undefined;
}

describe('health answers while inference runs', () => {
  it('during two heavy batches of NFKC-expanding text', async () => {
    const heavy = Promise.all([1, 2].map(() => postJson(`${server.url}/v1/moderate/batch`, HEAVY_BATCH)));
    const answered = await healthAnswersWhile(heavy);
    const bodies = await Promise.all((await heavy).map(expectDoneOrBusy));
    // Old code: the batches held the event loop (health waited for them); now it answers throughout.
    expect(answered).toBeGreaterThanOrEqual(5);
    for (const body of bodies.filter(Boolean)) {
      expect(body.results).toHaveLength(100);
      expect(body.results[0].meta.truncated.reason).toMatch(/text_chars|batch_chars/);
    }
  }, 180_000);

  it('during 20 parallel recognitions of a many-face image', async () => {
    // 3 x 3 tiles of a two-person photo: 18 faces per request.
    const tile = readFileSync(path.join(faces, 'test', 'obama_and_biden.jpg'));
    const { width = 0, height = 0 } = await sharp(tile).metadata();
    const composite = [];
    for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) composite.push({ input: tile, left: x * width, top: y * height });
    const image = await sharp({ create: { width: width * 3, height: height * 3, channels: 3, background: '#fff' } })
      .composite(composite)
      .jpeg()
      .toBuffer();
    const recognise = () => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'crowd.jpg');
      return fetch(`${server.url}/api/v1/recognize`, { method: 'POST', body: form });
    };
    const runs = Promise.all(Array.from({ length: 20 }, recognise));
    const answered = await healthAnswersWhile(runs);
    const bodies = await Promise.all((await runs).map(expectDoneOrBusy));
    expect(answered).toBeGreaterThanOrEqual(5);
    const done = bodies.filter(Boolean);
    expect(done.length).toBeGreaterThan(0);
    for (const body of done) expect(body.data.faces.length).toBeGreaterThan(2);
  }, 240_000);
});
