import { describe, expect, it, vi } from 'vitest';
import type { V1Context } from '@/lib/http/v1-route';
import { v1ErrorResponse } from '@/lib/http/v1-error';
import { createJobRequest } from './job-requests';

// The handlers import the composition root (lib/composition), which is marked server-only.
vi.mock('server-only', () => ({}));
// A signing secret exists, and the job service is never opened: a job that gets past the
// callback check stops there, where a real one would be stored and answered 202.
vi.mock('@/lib/composition/job-service', () => ({
  callbackSecretOf: () => 'secret',
  jobService: async () => {
    throw new Error('reached the job service');
  },
}));

describe('POST /v1/jobs caps the nesting of metadata as person metadata is', () => {
  // An object holding arrays: two characters a level, so 1,900 levels fit in the 4,096 bytes allowed.
  const nested = (levels: number) => `{"a":${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}}`;
  const create = async (metadata: string) => {
    const request = new Request(`http://localhost/v1/jobs?metadata=${encodeURIComponent(metadata)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{"text":"hello"}\n',
    });
    const err = await createJobRequest({ request, params: {} } as unknown as V1Context).catch((e: unknown) => e);
    if (err instanceof Error && err.message === 'reached the job service') return { status: 202, body: undefined };
    const res = v1ErrorResponse(err);
    return { status: res.status, body: await res.json() };
  };

  it('takes 32 levels and answers 33 (or 1,900) with 422 naming the query parameter', async () => {
    expect((await create(nested(32))).status).toBe(202);
    for (const levels of [33, 1_900]) {
      expect(await create(nested(levels))).toEqual({
        status: 422,
        body: {
          detail: [{ loc: ['query', 'metadata'], msg: 'metadata must not be nested more than 32 levels deep.', type: 'value_error' }],
        },
      });
    }
  });
});

describe('POST /v1/jobs refuses a callback to an internal address when the job is created', () => {
  const create = async (callbackUrl: string) => {
    const request = new Request(`http://localhost/v1/jobs?callback_url=${encodeURIComponent(callbackUrl)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{"text":"hello"}\n',
    });
    try {
      await createJobRequest({ request, params: {} } as unknown as V1Context);
      return { status: 202, body: undefined };
    } catch (err) {
      if (err instanceof Error && err.message === 'reached the job service') return { status: 202, body: undefined };
      const res = v1ErrorResponse(err);
      return { status: res.status, body: await res.json() };
    }
  };

  it.each([
    ['https://127.0.0.1/hook', '127.0.0.1'],
    ['https://127.1/hook', '127.0.0.1'],
    ['https://2130706433/hook', '127.0.0.1'],
    ['https://0.0.0.0/hook', '0.0.0.0'],
    ['https://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['https://[::1]/hook', '::1'],
    ['https://10.0.0.1/hook', '10.0.0.1'],
    ['https://172.16.0.1/hook', '172.16.0.1'],
    ['https://192.168.1.1/hook', '192.168.1.1'],
    ['https://169.254.169.254/hook', '169.254.169.254'],
    ['https://[fe80::1]/hook', 'fe80::1'],
  ])('%s answers 422 naming the query parameter', async (url, address) => {
    expect(await create(url)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ['query', 'callback_url'],
            msg: `callback_url must not point to a loopback, private, link-local or other internal address (${address}) unless its host is in JOB_CALLBACK_ALLOWED_HOSTS.`,
            type: 'value_error',
          },
        ],
      },
    });
  });

  it.each(['https://hooks.example.com/done', 'https://8.8.8.8/hook', 'https://[2606:4700::1111]/hook'])(
    '%s (a name, or a public address) is taken',
    async (url) => {
      expect((await create(url)).status).toBe(202);
    },
  );
});

describe('POST /v1/jobs refuses metadata the database cannot store when the job is created', () => {
  it.each([
    ['a NUL in a value', '{"a":"x\\u0000y"}'],
    ['a NUL in a key', '{"x\\u0000y":1}'],
    ['an unpaired surrogate', '{"a":"\\ud800"}'],
  ])('%s answers 422 naming the query parameter', async (_, metadata) => {
    const request = new Request(`http://localhost/v1/jobs?metadata=${encodeURIComponent(metadata)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{"text":"hello"}\n',
    });
    const err = await createJobRequest({ request, params: {} } as unknown as V1Context).catch((e: unknown) => e);
    const res = v1ErrorResponse(err);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        {
          loc: ['query', 'metadata'],
          msg: 'metadata must not contain NUL (U+0000) characters or unpaired surrogates.',
          type: 'value_error',
        },
      ],
    });
  });
});
