/**
 * Scale-out and database faults on a real PostgreSQL 15; runs only from scripts/test-postgres.sh,
 * which provides TEST_DATABASE_URL and TEST_PG_CTL (a script taking `stop` or `start`).
 * - Two server processes on one database behave as one service: a rate limit is enforced across
 *   both, and a person registered through one is recognised through the other.
 * - A policy threshold changed through one instance is applied by the other within
 *   POLICY_REFRESH_SECONDS (docs/decisions/172), and so is its revert.
 * - PostgreSQL stopping under a running server gives 503 DATABASE_UNAVAILABLE (moderation keeps
 *   answering), and the server recovers by itself when PostgreSQL is back.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteFaceEnvelopeSchema,
  faceListEnvelopeSchema,
  personEnvelopeSchema,
  personListEnvelopeSchema,
  recognizeEnvelopeSchema,
} from '@/lib/contracts/persons';
import { moderationResponseSchema } from '@/lib/contracts/moderation';
import { policyEnvelopeSchema, versionEnvelopeSchema } from '@/lib/contracts/policy';
import { expectEnvelopeError, imageForm, photo } from './fixtures';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const PG_CTL = process.env.TEST_PG_CTL;

describe.runIf(DATABASE_URL && PG_CTL)(
  'on one PostgreSQL (skipped unless TEST_DATABASE_URL and TEST_PG_CTL are set: npm run test:postgres)',
  () => {
    const pgEnv = { DATABASE_URL: DATABASE_URL!, DATABASE_DRIVER: 'pg' };

    describe('a policy change made on one instance', () => {
      let a: RunningServer;
      let b: RunningServer;
      beforeAll(async () => {
        a = await startServer({ ...pgEnv, POLICY_REFRESH_SECONDS: '1', RATE_LIMIT_PER_MINUTE: '0', FACE_WARM_ON_START: 'false' });
        b = await startServer({ ...pgEnv, POLICY_REFRESH_SECONDS: '1', RATE_LIMIT_PER_MINUTE: '0', FACE_WARM_ON_START: 'false' });
      });
      afterAll(async () => {
        await Promise.all([a?.stop(), b?.stop()]);
      });

      // Under 0.99 (the highest threshold a policy may set) on every head, so raising one category unflags it.
      const TEXT = 'Stop acting like a clown.';
      const verdictOn = async (server: RunningServer) =>
        moderationResponseSchema.parse(await (await postJson(`${server.url}/v1/moderate/text`, { text: TEXT, explain: true })).json());
      /** Moderates on `server` until `done` holds (the bound is POLICY_REFRESH_SECONDS; 30 s is only a give-up). */
      async function until(server: RunningServer, done: (verdict: Awaited<ReturnType<typeof verdictOn>>) => boolean): Promise<number> {
        const started = Date.now();
        while (Date.now() - started < 30_000) {
          if (done(await verdictOn(server))) return Date.now() - started;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error('the other instance never applied the policy change');
      }

      it('is applied by the other within POLICY_REFRESH_SECONDS, and so is its revert', async () => {
        const before = await verdictOn(b);
        const issue = before.explanations!.decision!.issue;
        const category = issue === 'toxicity' ? 'overall' : issue;
        const current = policyEnvelopeSchema.parse(await (await fetch(`${a.url}/api/v1/policy`)).json());
        if (!current.success) throw new Error(current.error.message);
        const saved = versionEnvelopeSchema.parse(
          await (
            await postJson(`${a.url}/api/v1/policy/versions`, {
              category,
              threshold: 0.99,
              reason: 'scale-out test',
              expected_version: current.data.version,
            })
          ).json(),
        );
        if (!saved.success) throw new Error(saved.error.message);
        // Applied: the raised category stops deciding (the score falls, or another flagged category gives the verdict).
        const appliedMs = await until(b, (v) => v.explanations!.decision!.issue !== issue || v.ensemble.score < before.ensemble.score);
        console.log(`policy change seen on the second instance after ${appliedMs} ms (POLICY_REFRESH_SECONDS=1)`);

        const reverted = await postJson(`${a.url}/api/v1/policy/versions/${saved.data.version}/revert`, {
          reason: 'back',
          expected_version: saved.data.version,
        });
        expect(reverted.status).toBe(200);
        await until(b, (v) => v.explanations!.decision!.issue === issue && v.ensemble.score === before.ensemble.score);
        expect((await verdictOn(a)).ensemble).toEqual(before.ensemble);
      });
    });

    describe('two instances', () => {
      let a: RunningServer;
      let b: RunningServer;
      beforeAll(async () => {
        // One after the other: the second start also proves the migrations run once.
        a = await startServer({ ...pgEnv, RATE_LIMIT_PER_MINUTE: '5' });
        b = await startServer({ ...pgEnv, RATE_LIMIT_PER_MINUTE: '5' });
      });
      afterAll(async () => {
        await Promise.all([a?.stop(), b?.stop()]);
      });

      it('enforce one rate limit across both', async () => {
        const statuses: number[] = [];
        for (const server of [a, a, a, b, b, b]) {
          const res = await postJson(`${server.url}/v1/moderate/text`, { text: 'hello there' });
          await res.body?.cancel();
          statuses.push(res.status);
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
        expect((await postJson(`${a.url}/v1/moderate/text`, { text: 'again' })).status).toBe(429);
      });

      it('share the memory bank: registered on one, recognised on the other', async () => {
        const reg = personEnvelopeSchema.parse(
          await (
            await fetch(`${a.url}/api/v1/register`, {
              method: 'POST',
              body: imageForm({ name: 'Barack Obama' }, photo('train/obama/obama.jpg')),
            })
          ).json(),
        );
        if (!reg.success) throw new Error(reg.error.message);
        const rec = recognizeEnvelopeSchema.parse(
          await (await fetch(`${b.url}/api/v1/recognize`, { method: 'POST', body: imageForm({}, photo('train/obama/obama2.jpg')) })).json(),
        );
        if (!rec.success) throw new Error(rec.error.message);
        expect(rec.data.faces[0]).toMatchObject({ person_id: reg.data.person_id, name: 'Barack Obama', match: true });
      });

      it('check faces against the person: FACE_MISMATCH on one, confirmed, listed and one face deleted on the other', async () => {
        const reg = personEnvelopeSchema.parse(
          await (
            await fetch(`${a.url}/api/v1/register`, {
              method: 'POST',
              body: imageForm({ name: 'Joe Biden' }, photo('train/biden/biden.jpg')),
            })
          ).json(),
        );
        if (!reg.success) throw new Error(reg.error.message);
        const id = reg.data.person_id;
        const add = (server: RunningServer, rel: string, fields: Record<string, string> = {}) =>
          fetch(`${server.url}/api/v1/persons/${id}/faces`, { method: 'POST', body: imageForm(fields, photo(rel)) });
        expect((await add(b, 'train/biden/biden2.jpg')).status).toBe(200);
        await expectEnvelopeError(await add(a, 'train/rose_leslie/img1.jpg'), 409, 'FACE_MISMATCH');
        expect((await add(a, 'train/rose_leslie/img1.jpg', { confirm_mismatch: 'true' })).status).toBe(200);

        const list = faceListEnvelopeSchema.parse(await (await fetch(`${b.url}/api/v1/persons/${id}/faces`)).json());
        if (!list.success) throw new Error(list.error.message);
        expect(list.data.faces.map((f) => f.outlier)).toEqual([false, false, true]);
        const faceUrl = (faceId: string) => `${b.url}/api/v1/persons/${id}/faces/${faceId}`;
        const del = deleteFaceEnvelopeSchema.parse(await (await fetch(faceUrl(list.data.faces[2]!.face_id), { method: 'DELETE' })).json());
        expect(del).toMatchObject({ success: true, data: { embedding_count: 2 } });
        expect((await fetch(faceUrl(list.data.faces[1]!.face_id), { method: 'DELETE' })).status).toBe(200);
        await expectEnvelopeError(await fetch(faceUrl(list.data.faces[0]!.face_id), { method: 'DELETE' }), 409, 'LAST_FACE');
        const person = personEnvelopeSchema.parse(await (await fetch(`${a.url}/api/v1/persons/${id}`)).json());
        expect(person).toMatchObject({ success: true, data: { embedding_count: 1 } });
      });
    });

    describe('PostgreSQL going away after start-up', () => {
      let server: RunningServer;
      beforeAll(async () => {
        server = await startServer({ ...pgEnv, RATE_LIMIT_PER_MINUTE: '1000', FACE_WARM_ON_START: 'false' });
      });
      afterAll(async () => {
        // Whatever happened, leave PostgreSQL running (pg_ctl start fails when it already is).
        try {
          execFileSync(PG_CTL!, ['start'], { stdio: 'ignore' });
        } catch {
          // already running
        }
        await server?.stop();
      });

      it('answers 503 DATABASE_UNAVAILABLE while it is down, keeps moderating, and recovers', async () => {
        const list = () => fetch(`${server.url}/api/v1/persons`);
        expect((await list()).status).toBe(200);

        execFileSync(PG_CTL!, ['stop']);
        for (const res of [
          await list(),
          await fetch(`${server.url}/api/v1/reviews`),
          await fetch(`${server.url}/api/v1/persons/00000000-0000-4000-8000-000000000000`),
        ]) {
          await expectEnvelopeError(res, 503, 'DATABASE_UNAVAILABLE');
        }
        const moderated = await postJson(`${server.url}/v1/moderate/text`, { text: 'You are a pathetic idiot.' });
        expect(moderated.status).toBe(200);
        expect(await (await fetch(`${server.url}/v1/health`)).json()).toMatchObject({ status: 'healthy', models_loaded: true });

        execFileSync(PG_CTL!, ['start']);
        let status = 0;
        for (let i = 0; i < 60 && status !== 200; i++) {
          const res = await list();
          status = res.status;
          if (status === 200) expect(personListEnvelopeSchema.parse(await res.json()).success).toBe(true);
          else await new Promise((r) => setTimeout(r, 500));
        }
        expect(status).toBe(200);
        expect(server.process.exitCode).toBeNull();
      });
    });
  },
);
