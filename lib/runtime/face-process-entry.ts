/**
 * Entry of the face-engine process (built to .next/vigil-workers/face-engine.mjs by
 * scripts/build-workers.mjs, forked and supervised by face-process.ts). It loads the face models
 * (tfjs wasm, Human, face-api) once, says `ready`, then decodes each photo it is sent with sharp
 * and detects its faces, one photo at a time. It has no HTTP server and no database: a crash or a
 * leak here costs the memory bank a restart, never the text moderation in the server's process.
 */
import { DomainError } from '@/lib/errors/domain-error';
import { createFaceEngine } from '@/lib/faces/detect-faces';
import { loadFaceModels } from '@/lib/faces/load-face-models';
import { type FromFaceProcess, toFaceProcessSchema } from './face-process-protocol';

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

function send(message: FromFaceProcess): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

if (!process.send) {
  console.error('face-engine.mjs is started by the server (child_process.fork with an IPC channel), not on its own');
  process.exit(2);
}

// The server went away (a crash, kill -9): nobody will ask for faces again.
process.on('disconnect', () => process.exit(0));
// Ctrl-C in a terminal reaches the whole process group: the server drains its in-flight requests,
// recognitions included, and then stops this process itself (SIGTERM), so SIGINT is not for us.
process.on('SIGINT', () => undefined);

const engine = loadFaceModels().then(createFaceEngine);
engine.then(
  (e) => send({ type: 'ready', modelVersion: e.modelVersion }),
  async (err: unknown) => {
    await send({ type: 'load-failed', message: messageOf(err) });
    process.exit(1);
  },
);

process.on('message', (raw: unknown) => {
  const parsed = toFaceProcessSchema.safeParse(raw);
  if (!parsed.success) {
    console.error(`face process: dropped a message that is not in the protocol: ${parsed.error.issues[0]?.message ?? ''}`);
    return;
  }
  const message = parsed.data;
  if (message.type === 'stats') {
    const { rss, heapUsed } = process.memoryUsage();
    void send({ type: 'stats', id: message.id, rss, heapUsed });
    return;
  }
  // The engine serialises detections itself (detect-faces.ts); decoding runs on sharp's threads meanwhile.
  engine
    .then((e) => e.detect(message.photo, message.maxPixels))
    .then(
      (faces) => send({ type: 'detected', id: message.id, faces, rss: process.memoryUsage.rss() }),
      (err: unknown) => {
        const kind = DomainError.is(err) && err.code === 'INVALID_IMAGE' ? 'invalid_image' : 'failed';
        return send({ type: 'detect-failed', id: message.id, error: { kind, message: messageOf(err) }, rss: process.memoryUsage.rss() });
      },
    );
});
