/**
 * The face engine runs in a process of its own (docs/decisions/175-face-engine-process.md): kill -9
 * that process (its pid is `vigil_face_engine_pid` in /metrics) and text moderation keeps
 * answering 200, face routes answer 200 or the documented 503 SERVICE_UNAVAILABLE with
 * Retry-After while it is down, and a new process (another pid) takes over and recognises the
 * person registered before the kill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personEnvelopeSchema } from '@/lib/contracts/persons';
import { imageForm, photo, tempDirs } from './fixtures';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

const dirs = tempDirs('vigil-face-process-');
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dirs.make(), RATE_LIMIT_PER_MINUTE: '0', FACE_RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => {
  await server?.stop();
  dirs.cleanup();
});

/** A metric's value from /metrics (the text exposition), or undefined when the series is absent. */
async function metric(series: string): Promise<number | undefined> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Polls until the face process is up with a pid other than `not`; the test's own timeout bounds it. */
async function faceProcessUp(not?: number): Promise<number> {
  for (;;) {
    const pid = await metric('vigil_face_engine_pid');
    if ((await metric('vigil_face_engine_up')) === 1 && pid && pid !== not) return pid;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const recognize = () => fetch(`${server.url}/api/v1/recognize`, { method: 'POST', body: imageForm({}, photo('test/obama1.jpg')) });

describe('the face engine process', () => {
  it('runs apart from the server and reports its own resident memory', async () => {
    const pid = await faceProcessUp();
    expect(pid).not.toBe(server.process.pid);
    expect(await metric('vigil_process_rss_bytes{process="http"}')).toBeGreaterThan(0);
    expect(await metric('vigil_process_rss_bytes{process="face_engine"}')).toBeGreaterThan(0);
  });

  it('after kill -9 of the face process: text moderation answers 200, faces 503 until a new process recognises again', async () => {
    const registered = await fetch(`${server.url}/api/v1/register`, {
      method: 'POST',
      body: imageForm({ name: 'Barack Obama' }, photo('train/obama/obama.jpg')),
    });
    expect(registered.status).toBe(200);
    const person = personEnvelopeSchema.parse(await registered.json());
    const pid = await faceProcessUp();

    process.kill(pid, 'SIGKILL');
    const faceAnswers = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const text = await postJson(`${server.url}/v1/moderate/text`, { text: 'You are a pathetic idiot.' });
      expect(text.status).toBe(200);
      const face = await recognize();
      if (face.status === 503) {
        expect(((await face.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
        expect(face.headers.get('retry-after')).toMatch(/^\d+$/);
      } else {
        expect(face.status).toBe(200);
        await face.body?.cancel();
      }
      faceAnswers.add(String(face.status));
    }
    expect([...faceAnswers].every((s) => s === '200' || s === '503')).toBe(true);

    const next = await faceProcessUp(pid);
    expect(next).not.toBe(pid);
    expect(await metric('vigil_face_engine_restarts_total')).toBe(1);
    const again = await recognize();
    expect(again.status).toBe(200);
    const body = (await again.json()) as { data: { faces: { person_id: string | null; match: boolean }[] } };
    expect(body.data.faces[0]).toMatchObject({ match: true, person_id: person.success ? person.data.person_id : '' });
    expect(server.process.exitCode).toBeNull();
    expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
  });
});
