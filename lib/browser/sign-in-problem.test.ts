import { describe, expect, it } from 'vitest';
import { signInProblem } from './sign-in-problem';
import { ApiError } from './vigil-api';

describe('signInProblem', () => {
  it('says a wrong key was not accepted, without the error code or the server text', () => {
    const p = signInProblem(new ApiError(401, 'UNAUTHORIZED', 'The API key is not valid.'));
    expect(p.summary).toMatch(/^That key was not accepted\./);
    expect(p.code).toBeUndefined();
    expect(p.detail).toBeUndefined();
  });
  it('asks to wait after too many wrong keys', () => {
    expect(signInProblem(new ApiError(429, 'RATE_LIMITED', 'Too many wrong API keys')).summary).toMatch(/wait a minute/);
  });
  it('explains other failures as every page does, the code kept for Details', () => {
    expect(signInProblem(new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached (x).'))).toMatchObject({
      code: 'NETWORK_ERROR',
      summary: expect.stringMatching(/could not be reached/),
    });
  });
});
