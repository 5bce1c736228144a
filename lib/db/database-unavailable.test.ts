import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, FaceModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { isDatabaseUnavailableError } from './database-unavailable';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailableError', () => {
  it('recognises connection failures, directly or as a cause', () => {
    expect(isDatabaseUnavailableError(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailableError(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailableError(withCode('08006'))).toBe(true);
    expect(isDatabaseUnavailableError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailableError(new Error('Failed query: select 1', { cause: withCode('ECONNRESET') }))).toBe(true);
    expect(isDatabaseUnavailableError(new AggregateError([withCode('ECONNREFUSED')]))).toBe(true);
    expect(isDatabaseUnavailableError(new DatabaseUnavailableError(new Error('x')))).toBe(true);
  });

  it('leaves query bugs and other failures alone', () => {
    expect(isDatabaseUnavailableError(withCode('23505', 'duplicate key'))).toBe(false);
    expect(isDatabaseUnavailableError(withCode('42P01', 'relation does not exist'))).toBe(false);
    expect(isDatabaseUnavailableError(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailableError('ECONNREFUSED')).toBe(false);
    expect(isDatabaseUnavailableError(new FaceModelsUnavailableError(new Error('x')))).toBe(false);
  });
});
