import { describe, expect, it } from 'vitest';
import { brandError } from '@/lib/http/error-brand';
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
    const open = Object.assign(new Error('database unavailable: x'), { resource: 'database' });
    brandError(open, 'FaceServiceUnavailableError');
    expect(isDatabaseUnavailableError(open)).toBe(true);
  });

  it('leaves query bugs and other failures alone', () => {
    expect(isDatabaseUnavailableError(withCode('23505', 'duplicate key'))).toBe(false);
    expect(isDatabaseUnavailableError(withCode('42P01', 'relation does not exist'))).toBe(false);
    expect(isDatabaseUnavailableError(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailableError('ECONNREFUSED')).toBe(false);
    const models = Object.assign(new Error('face models unavailable'), { resource: 'face models' });
    brandError(models, 'FaceServiceUnavailableError');
    expect(isDatabaseUnavailableError(models)).toBe(false);
  });
});
