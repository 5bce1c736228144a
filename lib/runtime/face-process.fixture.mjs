// Stands in for the face engine's process in face-process.test.ts: speaks the protocol of
// face-process-protocol.ts without loading any model. What it does is read at start from the file
// named by FACE_FIXTURE_MODE_FILE, so a test can change it between restarts:
// ok (one face per detection, a face count of photo[0]), fail-load, hang (never answers a detection),
// garbage (a message outside the protocol before each answer), invalid (INVALID_IMAGE),
// fat (reports 1 GiB resident after each detection).
import { readFileSync } from 'node:fs';

const mode = readFileSync(process.env.FACE_FIXTURE_MODE_FILE, 'utf8').trim();
const send = (m) => new Promise((resolve) => process.send(m, undefined, {}, () => resolve()));
process.on('disconnect', () => process.exit(0));

if (mode === 'fail-load') {
  await send({ type: 'load-failed', message: 'model.json is not JSON' });
  process.exit(1);
}
process.on('message', (m) => {
  const rss = mode === 'fat' ? 2 ** 30 : process.memoryUsage.rss();
  if (m.type === 'stats') return void send({ type: 'stats', id: m.id, rss, heapUsed: 1 });
  if (mode === 'hang') return;
  if (mode === 'garbage') void send({ type: 'detected', id: m.id, faces: 'not a list' });
  if (mode === 'invalid') {
    return void send({
      type: 'detect-failed',
      id: m.id,
      error: { kind: 'invalid_image', message: 'Invalid image format: truncated.' },
      rss,
    });
  }
  const face = { box: { x: 0, y: 0, width: 10, height: 10 }, score: 0.9, descriptor: [m.maxPixels], rollDegrees: 0 };
  void send({ type: 'detected', id: m.id, faces: Array.from({ length: m.photo[0] }, () => face), rss });
});
await send({ type: 'ready', modelVersion: 'fixture@1' });
