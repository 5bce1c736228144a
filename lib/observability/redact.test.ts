import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger';
import { errorForLog, fingerprint, redactForLog } from './redact';

const SECRET_TEXT = 'the quick sentinel text 7f3a';

describe('fingerprint', () => {
  it('is a 12-hex SHA-256 prefix and the length, never the input', () => {
    const fp = fingerprint(SECRET_TEXT);
    expect(fp).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{12}$/), length: SECRET_TEXT.length });
    expect(fingerprint(SECRET_TEXT)).toEqual(fp);
    expect(fingerprint(`${SECRET_TEXT}!`).sha256).not.toBe(fp.sha256);
  });
});

describe('redactForLog', () => {
  it('replaces texts, images and embeddings (also nested) and keeps other fields', () => {
    const out = redactForLog({
      msg: 'x',
      status: 200,
      text: SECRET_TEXT,
      texts: [SECRET_TEXT, 'another'],
      image: new Uint8Array([1, 2, 3]),
      embedding: Array.from({ length: 128 }, (_, i) => i / 128),
      nested: { note: SECRET_TEXT, descriptor: new Float32Array(128), ok: 'kept' },
      unnamedVector: Array.from({ length: 64 }, () => 0.5),
      authorization: 'Bearer operator-key-0123456789',
    });
    const json = JSON.stringify(out);
    expect(json).not.toContain('sentinel');
    expect(json).not.toContain('another');
    expect(json).not.toContain('operator-key');
    expect(json).not.toContain('0.5,');
    expect(out.status).toBe(200);
    expect(out.text).toEqual(fingerprint(SECRET_TEXT));
    expect(out.image).toEqual({ sha256: expect.any(String), length: 3 });
    expect(out.embedding).toEqual({ numbers: 128 });
    expect(out.unnamedVector).toEqual({ numbers: 64 });
    expect(out.nested).toEqual({ note: fingerprint(SECRET_TEXT), descriptor: { bytes: 512 }, ok: 'kept' });
  });

  it('keeps short numeric arrays that are not under a sensitive name', () => {
    expect(redactForLog({ box: [1, 2, 3, 4] })).toEqual({ box: [1, 2, 3, 4] });
  });
});

describe('errorForLog', () => {
  it('keeps the class and a bounded message, without the stack', () => {
    const e = errorForLog(new TypeError('x'.repeat(1000)));
    expect(e.type).toBe('TypeError');
    expect(e.message.length).toBeLessThanOrEqual(301);
    expect(JSON.stringify(e)).not.toContain('    at ');
  });
});

describe('the pino logger', () => {
  it('writes JSON lines with a level label and the request id, and redacts every line', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = pino(loggerOptions('info'), sink).child({ reqId: 'req-1' });
    log.info({ text: SECRET_TEXT, route: '/v1/moderate/text' }, 'moderated');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'info', msg: 'moderated', reqId: 'req-1', route: '/v1/moderate/text', service: 'vigil' });
    expect(lines[0]).not.toContain('sentinel');
    expect(line.text).toEqual(fingerprint(SECRET_TEXT));
  });
});

describe('errorForLog drops query parameters', () => {
  it('keeps the SQL placeholders, never the bound values', () => {
    const err = new Error(
      'Failed query: insert into "persons" ("name", "metadata") values ($1, $2)\nparams: Alice Secret,{"diagnosis":"private"}',
      {
        cause: new Error('invalid byte sequence for encoding "UTF8"'),
      },
    );
    const logged = JSON.stringify(errorForLog(err));
    expect(logged).not.toMatch(/Alice|diagnosis|private/);
    expect(logged).toMatch(/values \(\$1, \$2\)/);
    expect(logged).toMatch(/invalid byte sequence/);
  });
});
