'use client';
/**
 * How many flagged texts were answered but not queued in the last 24 hours, and why (the hourly
 * quota per key or address, eviction by the storage cap, recording paused after a database
 * error), so the queue never falls silent without saying so (docs/decisions/160).
 */
import { useEffect, useState } from 'react';
import type { NotQueued, ReviewConfig } from '@/lib/contracts/review-console';
import { api } from '@/lib/browser/vigil-api';

function why(c: NotQueued['counts'][number], config: ReviewConfig | undefined): string {
  if (c.reason === 'evicted') return 'evicted: the queue was full (REVIEW_MAX_ITEMS)';
  const keyed = c.client.startsWith('key:');
  const limit = keyed ? config?.quota.per_key_per_hour : config?.quota.per_address_per_hour;
  const who = keyed ? c.client : 'clients without a key';
  const per = limit === undefined ? '' : ` (${limit} new item${limit === 1 ? '' : 's'} an hour)`;
  return `over the hourly quota of ${who}${per}`;
}

export function NotQueuedNotice({ refresh, config }: { refresh: number; config: ReviewConfig | undefined }) {
  const [data, setData] = useState<NotQueued | undefined>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is the refetch trigger (the queue's Refresh).
  useEffect(() => {
    let live = true;
    api.notQueued(24).then(
      (d) => live && setData(d),
      () => live && setData(undefined),
    );
    return () => {
      live = false;
    };
  }, [refresh]);
  if (!data || (data.total === 0 && !data.recording_paused_until)) return null;
  return (
    <div className="alert alert-warn" data-testid="review-not-queued" data-total={data.total}>
      {data.total > 0 && (
        <>
          <p>
            {data.total} flagged text{data.total === 1 ? ' was' : 's were'} answered but not queued in the last 24 hours (threats and
            self-harm are always queued):
          </p>
          <ul>
            {data.counts.map((c) => (
              <li key={`${c.reason}-${c.client}`} data-testid="review-not-queued-reason" data-reason={c.reason} data-client={c.client}>
                {c.count} {why(c, config)}
              </li>
            ))}
          </ul>
        </>
      )}
      {data.recording_paused_until && (
        <p>Recording is paused after a database error until {new Date(data.recording_paused_until).toLocaleTimeString()}.</p>
      )}
    </div>
  );
}
