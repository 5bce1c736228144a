import { describe, expect, it } from 'vitest';
import { moderationRequestSchemas } from '@/lib/contracts/moderation';
import { parseV1Body } from './zod-issues-to-v1';
import { V1Error } from './v1-error';

const { text, batch } = moderationRequestSchemas({ maxTextChars: 10, maxBatchItems: 3 });

function errorOf(schema: Parameters<typeof parseV1Body>[0], body: unknown): V1Error {
  try {
    parseV1Body(schema, body);
  } catch (e) {
    if (e instanceof V1Error) return e;
    throw e;
  }
  throw new Error('expected a validation error');
}

describe('parseV1Body', () => {
  it('accepts valid bodies and ignores unknown fields', () => {
    expect(parseV1Body(text, { text: 'hello', extra: 1 })).toEqual({ text: 'hello' });
    expect(parseV1Body(batch, { texts: ['a', 'b'], explain: true })).toEqual({ texts: ['a', 'b'], explain: true });
  });

  it.each([
    ['missing text', text, {}, 400, [{ loc: ['body', 'text'], type: 'missing', msg: 'Field required' }]],
    ['empty text', text, { text: '' }, 400, [{ loc: ['body', 'text'], type: 'string_too_short' }]],
    ['number text', text, { text: 5 }, 422, [{ loc: ['body', 'text'], type: 'string_type', msg: 'Input should be a valid string' }]],
    ['null text', text, { text: null }, 422, [{ loc: ['body', 'text'], type: 'string_type' }]],
    ['array body', text, ['x'], 422, [{ loc: ['body'], type: 'model_attributes_type' }]],
    ['too long', text, { text: 'x'.repeat(11) }, 422, [{ loc: ['body', 'text'], type: 'string_too_long' }]],
    ['bad explain', text, { text: 'a', explain: 'yes' }, 422, [{ loc: ['body', 'explain'], type: 'bool_type' }]],
    ['missing texts', batch, {}, 400, [{ loc: ['body', 'texts'], type: 'missing' }]],
    ['empty batch', batch, { texts: [] }, 400, [{ loc: ['body', 'texts'], type: 'too_short' }]],
    ['too many', batch, { texts: ['a', 'b', 'c', 'd'] }, 422, [{ loc: ['body', 'texts'], type: 'too_long' }]],
    ['texts not a list', batch, { texts: 'a' }, 422, [{ loc: ['body', 'texts'], type: 'list_type' }]],
    ['bad item', batch, { texts: ['a', 'b', 3] }, 422, [{ loc: ['body', 'texts', 2], type: 'string_type' }]],
    ['empty item', batch, { texts: ['a', ''] }, 400, [{ loc: ['body', 'texts', 1], type: 'string_too_short' }]],
  ] as const)('%s', (_name, schema, body, status, detail) => {
    const e = errorOf(schema, body);
    expect(e.status).toBe(status);
    expect(e.detail).toEqual(detail.map((d) => expect.objectContaining(d)));
  });

  it('counts characters as code points, so 10 emoji fit a 10-character limit', () => {
    expect(() => parseV1Body(text, { text: '😀'.repeat(10) })).not.toThrow();
    expect(errorOf(text, { text: '😀'.repeat(11) }).status).toBe(422);
  });

  it('answers 422 when a body mixes a wrong type with a missing field', () => {
    expect(errorOf(batch, { texts: ['', 5] }).status).toBe(422);
  });
});
