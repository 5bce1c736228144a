import { describe, expect, it } from 'vitest';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { V1Error, v1ErrorResponse } from './v1-error';

describe('v1ErrorResponse', () => {
  it('turns an unexpected error into 500 with the spec prefix and the request id, and nothing of the error', async () => {
    // What a failed statement throws: the SQL and its parameters in the message, the driver's error as the cause.
    const dbError = Object.assign(
      new Error(
        'Failed query: insert into "moderation_job_lines" ("job_id", "line", "input") values ($1, $2, $3)\nparams: 0b0c,1,key:4f2a',
      ),
      { cause: new Error('invalid byte sequence for encoding "UTF8": 0x00') },
    );
    const res = v1ErrorResponse(dbError, { 'X-Request-Id': 'req-42' });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('req-42');
    const body = (await res.json()) as { detail: string };
    expect(body).toEqual({ detail: 'Moderation processing failed: an internal error occurred (request id req-42).' });
    expect(v1ErrorResponse(new TypeError('boom')).status).toBe(500);
    expect(await v1ErrorResponse(new TypeError('boom')).text()).not.toContain('boom');
  });

  it('answers 503 for a model that is not loaded', async () => {
    const res = v1ErrorResponse(new ModelsUnavailableError('toxic_transformer_v1 is not loaded'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(((await res.json()) as { detail: string }).detail).toContain('toxic_transformer_v1');
  });

  it('recognises errors made by another copy of the class (another Next bundle)', async () => {
    const foreign = Object.assign(new Error('limit'), { status: 429, detail: 'slow down', headers: { 'Retry-After': '5' } });
    Object.defineProperty(foreign, Symbol.for('vigil.error.V1Error'), { value: true });
    expect(V1Error.is(foreign)).toBe(true);
    const res = v1ErrorResponse(foreign);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(V1Error.is(new Error('plain'))).toBe(false);
  });
});
