import { describe, expect, it } from 'vitest';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { V1Error, v1ErrorResponse } from './v1-error';

describe('v1ErrorResponse', () => {
  it('turns an unexpected error into 500 with the spec prefix and no stack trace', async () => {
    const res = v1ErrorResponse(new TypeError('boom'));
    expect(res.status).toBe(500);
    const body = (await res.json()) as { detail: string };
    expect(body).toEqual({ detail: 'Moderation processing failed: boom' });
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
