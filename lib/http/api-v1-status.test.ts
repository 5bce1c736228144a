import { describe, expect, it } from 'vitest';
import { API_V1_ERROR_CODES } from '@/lib/contracts/api-v1';
import { DomainError, FaceError, faceErrors } from '@/lib/errors/domain-error';
import { apiV1ErrorResponse } from './api-v1-error';
import { API_V1_STATUS, apiV1Status } from './api-v1-status';

describe('the /api/v1 code -> status table', () => {
  it('maps every documented code to an error status, and nothing else', () => {
    expect(Object.keys(API_V1_STATUS).sort()).toEqual([...API_V1_ERROR_CODES].sort());
    for (const code of API_V1_ERROR_CODES) {
      expect(apiV1Status(code), code).toBeGreaterThanOrEqual(400);
      expect(apiV1Status(code), code).toBeLessThan(600);
    }
  });

  it('keeps the statuses the contract documents', () => {
    expect(apiV1Status('VALIDATION_ERROR')).toBe(400);
    expect(apiV1Status('NO_FACE_DETECTED')).toBe(400);
    expect(apiV1Status('UNAUTHORIZED')).toBe(401);
    expect(apiV1Status('FORBIDDEN')).toBe(403);
    expect(apiV1Status('PERSON_NOT_FOUND')).toBe(404);
    expect(apiV1Status('FACE_ALREADY_REGISTERED')).toBe(409);
    expect(apiV1Status('PAYLOAD_TOO_LARGE')).toBe(413);
    expect(apiV1Status('UNSUPPORTED_MEDIA_TYPE')).toBe(415);
    expect(apiV1Status('RATE_LIMITED')).toBe(429);
    expect(apiV1Status('INTERNAL_ERROR')).toBe(500);
    expect(apiV1Status('DATABASE_UNAVAILABLE')).toBe(503);
  });

  it('answers 500 for a code it does not know, including names inherited from Object', () => {
    expect(apiV1Status('NOT_A_CODE')).toBe(500);
    expect(apiV1Status('')).toBe(500);
    expect(apiV1Status('toString')).toBe(500);
    expect(apiV1Status('__proto__')).toBe(500);
  });
});

describe('apiV1ErrorResponse with domain errors', () => {
  it("answers a FaceError at its code's status, with details and without a stack", async () => {
    const details = { person_id: '00000000-0000-4000-8000-000000000000', name: 'Ada' };
    const res = apiV1ErrorResponse(new FaceError('LAST_FACE', 'only face', { details }), { 'X-Request-Id': 'r' });
    expect(res.status).toBe(409);
    expect(res.headers.get('x-request-id')).toBe('r');
    expect(await res.json()).toEqual({ success: false, data: null, error: { code: 'LAST_FACE', message: 'only face', details } });
  });

  it('gives a code with one wording its message', async () => {
    const res = apiV1ErrorResponse(new FaceError('NO_FACE_DETECTED'));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('No face was detected in the provided image.');
    expect(apiV1ErrorResponse(faceErrors.personNotFound('x')).status).toBe(404);
  });

  it('answers 500 INTERNAL_ERROR for a domain error whose code the contract does not know', async () => {
    const stray = new DomainError('NOT_A_CODE' as never, 'internal detail');
    const res = apiV1ErrorResponse(stray, { 'X-Request-Id': 'req-7' });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      success: false,
      data: null,
      error: { code: 'INTERNAL_ERROR', message: 'The request could not be processed (request id req-7).' },
    });
  });
});
