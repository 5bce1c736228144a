/**
 * Bulk moderation jobs against the production server (docs/decisions/165-bulk-moderation-jobs.md):
 * a JSON Lines job answers every line once, in order, with the single endpoint's result or its
 * error; CSV keeps the input's columns; jobs belong to their key; the callback arrives signed; and
 * a job survives kill -9 at 30 %, 60 % and 90 % with exactly one result per input line.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobListSchema, jobResultLineSchema, jobSchema, type Job } from '@/lib/contracts/jobs';
import { moderationResponseSchema } from '@/lib/contracts/moderation';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';
import { tempDirs } from './fixtures';

const dirs = tempDirs('vigil-jobs-');
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  dirs.cleanup();
});

const KEY_A = 'jobs-key-a-0123456789';
const KEY_B = 'jobs-key-b-0123456789';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

const WORDS = [
  'great',
  'match',
  'today',
  'you',
  'are',
  'an',
  'idiot',
  'thanks',
  'for',
  'sharing',
  'women',
  'should',
  'cook',
  'lovely',
  'weather',
];
/** Varied short texts, reproducible. */
function texts(n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 11 + 5) % WORDS.length]} #${i}`,
  );
}
const jsonl = (items: string[]) => items.map((text) => JSON.stringify({ text })).join('\n');

async function createJob(s: RunningServer, key: string, body: string, type = 'application/x-ndjson', query = ''): Promise<Response> {
  return fetch(`${s.url}/v1/jobs${query}`, { method: 'POST', headers: { ...auth(key), 'content-type': type }, body });
}

async function job(s: RunningServer, key: string, id: string): Promise<Job> {
  const res = await fetch(`${s.url}/v1/jobs/${id}`, { headers: auth(key) });
  expect(res.status).toBe(200);
  return jobSchema.parse(await res.json());
}

async function until(s: RunningServer, key: string, id: string, done: (j: Job) => boolean, ms = 240_000): Promise<Job> {
  const end = Date.now() + ms;
  for (;;) {
    const j = await job(s, key, id);
    if (done(j)) return j;
    if (Date.now() > end) throw new Error(`job ${id} still ${j.state} (${j.counts.done}/${j.counts.total})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function results(s: RunningServer, key: string, id: string, format = '') {
  const res = await fetch(`${s.url}/v1/jobs/${id}/results${format}`, { headers: auth(key) });
  expect(res.status).toBe(200);
  return res.text();
}

describe('bulk jobs on one server', () => {
  let server: RunningServer;
  const callbacks: { body: string; headers: IncomingMessage['headers'] }[] = [];
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      callbacks.push({ body, headers: req.headers });
      res.end('ok');
    });
  });
  afterAll(() => hook.close());

  beforeAll(async () => {
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const hookPort = (hook.address() as AddressInfo).port;
    server = await startServer({
      DATA_DIR: dirs.make(),
      API_KEYS: `${KEY_A},${KEY_B}`,
      RATE_LIMIT_PER_MINUTE: '0',
      JOBS_CHUNK_TEXTS: '40',
      JOBS_MAX_TEXTS: '1000',
      JOB_CALLBACK_ALLOWED_HOSTS: `127.0.0.1:${hookPort}`,
    });
    servers.push(server);
  }, 120_000);

  it('answers 401 without a key, 415 for another body type, 413 over JOBS_MAX_TEXTS', async () => {
    const anonymous = await fetch(`${server.url}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{"text":"a"}',
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ detail: expect.any(String) });
    expect((await createJob(server, KEY_A, '{"text":"a"}', 'application/json')).status).toBe(415);
    const tooMany = await createJob(server, KEY_A, jsonl(texts(1001)));
    expect(tooMany.status).toBe(413);
    const list = jobListSchema.parse(await (await fetch(`${server.url}/v1/jobs`, { headers: auth(KEY_A) })).json());
    expect(list.jobs).toEqual([]);
  });

  it('moderates a JSON Lines job: every line once, in order, the same result as /v1/moderate/text, bad lines as errors', async () => {
    const items = texts(130);
    const body = `${jsonl(items.slice(0, 50))}\n{"text": ""}\nnot json\n${jsonl(items.slice(50))}\n`;
    const hookPort = (hook.address() as AddressInfo).port;
    const created = await createJob(
      server,
      KEY_A,
      body,
      'application/x-ndjson',
      `?metadata=${encodeURIComponent('{"batch":"backlog-1"}')}&callback_url=${encodeURIComponent(`http://127.0.0.1:${hookPort}/done`)}`,
    );
    expect(created.status).toBe(202);
    const first = jobSchema.parse(await created.json());
    expect(created.headers.get('location')).toBe(`/v1/jobs/${first.id}`);
    expect(first.counts).toMatchObject({ total: 132, failed: 2 });
    expect(first.metadata).toEqual({ batch: 'backlog-1' });

    const finished = await until(server, KEY_A, first.id, (j) => j.state === 'succeeded');
    expect(finished.counts).toEqual({ total: 132, done: 132, failed: 2, flagged: expect.any(Number) });
    expect(finished.estimated_seconds_left).toBe(0);
    // Kept JOBS_RETENTION_HOURS (default 168) after it finished; no expiry while it ran.
    expect(first.expires_at).toBeNull();
    expect(Date.parse(finished.expires_at!) - Date.parse(finished.finished_at!)).toBe(168 * 3_600_000);

    const raw = (await results(server, KEY_A, first.id))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const lines = raw.map((l) => jobResultLineSchema.parse(l));
    expect(lines.map((l) => l.line)).toEqual(Array.from({ length: 132 }, (_, i) => i + 1));
    expect(lines[50]).toEqual({ line: 51, error: { status: 400, detail: [expect.objectContaining({ type: 'string_too_short' })] } });
    expect(lines[51]).toEqual({ line: 52, error: { status: 422, detail: [expect.objectContaining({ type: 'json_invalid' })] } });
    const single = moderationResponseSchema.parse(await (await postJson(`${server.url}/v1/moderate/text`, { text: items[60] })).json());
    const fromJob = moderationResponseSchema.parse(lines[62]);
    expect(fromJob.text).toBe(items[60]);
    // The job's answer is the single endpoint's, score for score: a text read beside others in a
    // chunk scores as it does alone (decision 188).
    expect(fromJob.label).toEqual(single.label);
    expect(fromJob.ensemble).toEqual(single.ensemble);
    // Fields in the single endpoint's order, after the line number.
    expect(Object.keys(raw[62]!)).toEqual(['line', ...Object.keys(single)]);
    // counts.flagged is the number of lines whose verdict is not likely_safe.
    const flagged = raw.filter((l) => 'ensemble' in l && (l.ensemble as { summary: string }).summary !== 'likely_safe').length;
    expect(flagged).toBeGreaterThan(0);
    expect(finished.counts.flagged).toBe(flagged);

    // The callback: signed with the key's secret over "<t>.<body>".
    const end = Date.now() + 30_000;
    while (callbacks.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const [call] = callbacks;
    expect(call).toBeDefined();
    const [t, v1] = String(call!.headers['x-vigil-signature'])
      .split(',')
      .map((p) => p.split('=')[1]);
    const secret = createHmac('sha256', KEY_A).update('vigil-job-callback').digest('hex');
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${call!.body}`).digest('hex'));
    expect(jobSchema.parse(JSON.parse(call!.body))).toMatchObject({ id: first.id, state: 'succeeded' });
  }, 120_000);

  it('keeps jobs to their key: another key gets 404 and an empty list', async () => {
    const [mine] = jobListSchema.parse(await (await fetch(`${server.url}/v1/jobs`, { headers: auth(KEY_A) })).json()).jobs;
    expect(mine).toBeDefined();
    expect((await fetch(`${server.url}/v1/jobs/${mine!.id}`, { headers: auth(KEY_B) })).status).toBe(404);
    expect((await fetch(`${server.url}/v1/jobs/${mine!.id}/results`, { headers: auth(KEY_B) })).status).toBe(404);
    expect((await fetch(`${server.url}/v1/jobs/${mine!.id}/cancel`, { method: 'POST', headers: auth(KEY_B) })).status).toBe(404);
    expect(jobListSchema.parse(await (await fetch(`${server.url}/v1/jobs`, { headers: auth(KEY_B) })).json()).jobs).toEqual([]);
  });

  it('reads a semicolon CSV and answers CSV with the input columns kept', async () => {
    const csv = 'id;comment;lang\n1;"thanks; lovely weather";en\n2;you are an idiot;en\n';
    const created = await createJob(server, KEY_B, csv, 'text/csv', '?text_column=comment');
    expect(created.status).toBe(202);
    const { id } = jobSchema.parse(await created.json());
    await until(server, KEY_B, id, (j) => j.state === 'succeeded');
    const out = (await results(server, KEY_B, id)).trim().split('\r\n');
    expect(out[0]).toBe('id,comment,lang,vigil_line,vigil_summary,vigil_primary_issue,vigil_score,vigil_severity,vigil_error,vigil_result');
    expect(out[1]).toMatch(/^1,thanks; lovely weather,en,2,likely_safe,none,[0-9.]+,low,,"\{""text"":""thanks; lovely weather"",/);
    expect(out[2]).toMatch(/^2,you are an idiot,en,3,/);
  });
});

describe('a job through kill -9 at 30 %, 60 % and 90 %', () => {
  it('completes with exactly one result per input line, in order', async () => {
    const dataDir = dirs.make();
    const env = {
      DATA_DIR: dataDir,
      API_KEYS: KEY_A,
      RATE_LIMIT_PER_MINUTE: '0',
      JOBS_CHUNK_TEXTS: '50',
      JOBS_LEASE_MS: '3000',
      JOBS_MAX_ACTIVE_PER_KEY: '1',
    };
    let server = await startServer(env);
    servers.push(server);
    const n = 2_400;
    const created = await createJob(server, KEY_A, jsonl(texts(n)));
    expect(created.status).toBe(202);
    const { id } = jobSchema.parse(await created.json());
    // One job at a time for this key (JOBS_MAX_ACTIVE_PER_KEY=1): a second is refused while it runs.
    const second = await createJob(server, KEY_A, jsonl(texts(3)));
    expect(second.status).toBe(429);
    await second.body?.cancel();
    for (const share of [0.3, 0.6, 0.9]) {
      const at = await until(server, KEY_A, id, (j) => j.counts.done >= share * n || j.state === 'succeeded');
      expect(at.state).toBe('running');
      server.process.kill('SIGKILL');
      await new Promise((r) => server.process.once('exit', r));
      server = await startServer(env);
      servers.push(server);
    }
    const done = await until(server, KEY_A, id, (j) => j.state === 'succeeded');
    expect(done.counts).toEqual({ total: n, done: n, failed: 0, flagged: expect.any(Number) });
    const lines = (await results(server, KEY_A, id))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; text: string });
    expect(lines.map((l) => l.line)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(lines.map((l) => l.text)).toEqual(texts(n));
  }, 600_000);
});
