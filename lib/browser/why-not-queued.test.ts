/** The Moderate tab's sentence for a flagged text that is not queued, from the server's counts. */
import { describe, expect, it } from 'vitest';
import { whyNotQueued } from './why-not-queued';

const counts = (quota: number, paused: string | null = null) => ({
  since: '2026-01-01T00:00:00.000Z',
  total: quota,
  counts: quota ? [{ reason: 'quota' as const, client: 'anonymous', count: quota }] : [],
  recording_paused_until: paused,
});

describe('why a text is not queued', () => {
  it('names the quota, a paused recorder, or the setting', () => {
    expect(whyNotQueued(counts(3))).toMatch(/hourly review quota was reached \(3 flagged texts/);
    expect(whyNotQueued(counts(0, '2026-01-01T00:01:00.000Z'))).toMatch(/paused/);
    expect(whyNotQueued(counts(0))).toMatch(/REVIEW_QUEUE/);
    expect(whyNotQueued(undefined)).toMatch(/REVIEW_QUEUE/);
  });
});
