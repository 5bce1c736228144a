import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id';

const withId = (id?: string) => new Request('http://x/', { headers: id === undefined ? {} : { 'x-request-id': id } });

describe('requestIdOf', () => {
  it('echoes a sane incoming id', () => {
    expect(requestIdOf(withId('abc-123_DEF.4:5'))).toBe('abc-123_DEF.4:5');
  });

  it('replaces a missing, overlong or unsafe id with a UUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const bad of [undefined, '', 'x'.repeat(129), 'has space', '{"json":1}', '<script>']) {
      expect(requestIdOf(withId(bad))).toMatch(uuid);
    }
  });
});
