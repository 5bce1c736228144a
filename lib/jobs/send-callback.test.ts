import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  CallbackAddressRefusedError,
  CallbackUrlError,
  callbackSecret,
  checkCallbackUrl,
  deliverCallback,
  postCallback,
  signCallback,
} from './send-callback';

const policy = { allowedHosts: ['hooks.internal'] };

describe('checkCallbackUrl', () => {
  it('takes https, and plain http only for an allowed host', () => {
    expect(checkCallbackUrl('https://example.com/hook', policy).host).toBe('example.com');
    expect(checkCallbackUrl('http://hooks.internal/x', policy).host).toBe('hooks.internal');
    expect(() => checkCallbackUrl('http://example.com/hook', policy)).toThrow(CallbackUrlError);
    expect(() => checkCallbackUrl('ftp://example.com', policy)).toThrow(CallbackUrlError);
    expect(() => checkCallbackUrl('https://user:pw@example.com', policy)).toThrow(/credentials/);
    expect(() => checkCallbackUrl('not a url', policy)).toThrow(CallbackUrlError);
  });

  it('refuses a loopback, private, link-local, unspecified or IPv4-mapped address however it is spelled', () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://127.1/hook',
      'https://2130706433/hook',
      'https://0.0.0.0/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://10.0.0.5/hook',
      'https://172.16.3.4/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fe80::1]/hook',
      'https://[fd00::1]/hook',
      'https://localhost/hook',
    ]) {
      expect(() => checkCallbackUrl(url, policy), url).toThrow(
        /must not point to a loopback, private, link-local or other internal address/,
      );
    }
    expect(() => checkCallbackUrl('https://2130706433/hook', policy)).toThrow('(127.0.0.1)');
  });

  it('takes an internal address whose host is listed, and leaves names to the connection', () => {
    expect(checkCallbackUrl('http://127.0.0.1:8080/hook', { allowedHosts: ['127.0.0.1:8080'] }).hostname).toBe('127.0.0.1');
    expect(checkCallbackUrl('https://[::1]/hook', { allowedHosts: ['[::1]'] }).hostname).toBe('[::1]');
    expect(checkCallbackUrl('https://8.8.8.8/hook', policy).hostname).toBe('8.8.8.8');
    expect(checkCallbackUrl('https://hooks.example.com/x', policy).hostname).toBe('hooks.example.com');
  });
});

describe('signCallback', () => {
  it('is an HMAC-SHA256 of "<t>.<body>" under the key-derived secret', () => {
    const secret = callbackSecret('the-api-key');
    expect(secret).toBe(createHmac('sha256', 'the-api-key').update('vigil-job-callback').digest('hex'));
    const mac = createHmac('sha256', secret).update('1700000000.{"a":1}').digest('hex');
    expect(signCallback(secret, '{"a":1}', 1_700_000_000)).toBe(`t=1700000000,v1=${mac}`);
  });
});

describe('postCallback', () => {
  it('refuses to connect to loopback unless the host is allowed (no SSRF)', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      // https to a name that resolves to loopback is refused before any byte is sent, as a refusal.
      await expect(postCallback(new URL(`https://localhost:${port}/`), '{}', {}, { allowedHosts: [] })).rejects.toBeInstanceOf(
        CallbackAddressRefusedError,
      );
      const allowed = { allowedHosts: [`127.0.0.1:${port}`] };
      expect(await postCallback(new URL(`http://127.0.0.1:${port}/`), '{}', {}, allowed)).toBe(200);
      expect(hits).toBe(1);
    } finally {
      server.close();
    }
  });
});

describe('deliverCallback', () => {
  it('retries with backoff until a 2xx, signing each try', async () => {
    const statuses = [500, new Error('ECONNRESET'), 204];
    const sent: Record<string, string>[] = [];
    const waits: number[] = [];
    const delivered = await deliverCallback(
      'https://example.com/hook',
      'job-1',
      { id: 'job-1' },
      {
        policy,
        secret: 's',
        maxAttempts: 5,
        baseDelayMs: 100,
        now: () => 1_700_000_000_000,
        sleep: async (ms) => {
          waits.push(ms);
        },
        post: async (_url, _body, headers) => {
          sent.push(headers);
          const next = statuses.shift()!;
          if (next instanceof Error) throw next;
          return next;
        },
      },
    );
    expect(delivered).toBe(true);
    expect(waits).toEqual([100, 200]);
    expect(sent.every((h) => h['X-Vigil-Signature'] === signCallback('s', '{"id":"job-1"}', 1_700_000_000))).toBe(true);
  });

  it('reports each try before waiting for the next', async () => {
    const events: string[] = [];
    await deliverCallback(
      'https://example.com/hook',
      'j',
      {},
      {
        policy,
        secret: 's',
        maxAttempts: 3,
        baseDelayMs: 1,
        sleep: async () => {
          events.push('wait');
        },
        post: async () => 503,
        onAttempt: async (attempt) => {
          await new Promise((r) => setTimeout(r, 5));
          events.push(`try ${attempt}`);
        },
      },
    );
    expect(events).toEqual(['try 1', 'wait', 'try 2', 'wait', 'try 3']);
  });

  it('stops at the first try whose name resolved to a refused address, without waiting', async () => {
    const tries: number[] = [];
    const waits: number[] = [];
    const delivered = await deliverCallback(
      'https://rebinds-to-loopback.example/hook',
      'j',
      {},
      {
        policy,
        secret: 's',
        maxAttempts: 8,
        baseDelayMs: 1_000,
        sleep: async (ms) => {
          waits.push(ms);
        },
        post: async () => {
          throw new CallbackAddressRefusedError('callback_url resolves to a refused address');
        },
        onAttempt: (attempt) => {
          tries.push(attempt);
        },
      },
    );
    expect(delivered).toBe(false);
    expect(tries).toEqual([1]);
    expect(waits).toEqual([]);
  });

  it('gives up after maxAttempts', async () => {
    const delivered = await deliverCallback(
      'https://example.com/hook',
      'j',
      {},
      { policy, secret: 's', maxAttempts: 2, baseDelayMs: 1, sleep: async () => undefined, post: async () => 503 },
    );
    expect(delivered).toBe(false);
  });
});
