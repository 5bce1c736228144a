'use client';
/**
 * Flagged texts that did not go straight into the active queue, and why (docs/decisions/160, 190):
 * how many wait in the backlog (over a client's hourly quota, kept for moderators to open and pull
 * in), how many were evicted by the storage cap in the last 24 hours, and whether recording is
 * paused after a database error, so the queue never falls silent without saying so.
 */
import { useEffect, useState } from 'react';
import type { NotQueued, ReviewConfig } from '@/lib/contracts/review-console';
import { api } from '@/lib/browser/vigil-api';
import { ConsoleLink } from './console-nav';
import styles from './console.module.css';

function why(c: NotQueued['counts'][number], config: ReviewConfig | undefined): string {
  if (c.reason === 'evicted') return 'evicted: the queue was full (REVIEW_MAX_ITEMS)';
  const keyed = c.client.startsWith('key:');
  const limit = keyed ? config?.quota.per_key_per_hour : config?.quota.per_address_per_hour;
  const who = keyed ? c.client : 'clients without a key';
  const per = limit === undefined ? '' : ` (${limit} new item${limit === 1 ? '' : 's'} an hour)`;
  return `over the hourly quota of ${who}${per}: sent to the backlog`;
}

interface NotQueuedNoticeProps {
  refresh: number;
  config: ReviewConfig | undefined;
  /** Whether the list shows the backlog now (then the notice does not offer to open it). */
  inBacklog: boolean;
}

export function NotQueuedNotice({ refresh, config, inBacklog }: NotQueuedNoticeProps) {
  const [data, setData] = useState<NotQueued | undefined>();
  const [backlog, setBacklog] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is the refetch trigger (the queue's Refresh).
  useEffect(() => {
    let live = true;
    api.notQueued(24).then(
      (d) => live && setData(d),
      () => live && setData(undefined),
    );
    api.listReviews({ status: 'backlog', limit: 1 }).then(
      (page) => live && setBacklog(page.total),
      () => live && setBacklog(0),
    );
    return () => {
      live = false;
    };
  }, [refresh]);
  const counted = data?.total ?? 0;
  if (backlog === 0 && counted === 0 && !data?.recording_paused_until) return null;
  return (
    <div className={`alert alert-warn ${styles.notQueued}`} data-testid="review-not-queued" data-total={counted} data-backlog={backlog}>
      {backlog > 0 && (
        <p data-testid="review-backlog-count">
          {backlog.toLocaleString('en')} flagged text{backlog === 1 ? ' waits' : 's wait'} in the backlog
          <span className={styles.wideOnly}> (over an hourly quota)</span>.{' '}
          {!inBacklog && (
            <ConsoleLink tab="reviews" review={{ status: 'backlog' }} testId="review-open-backlog">
              Open the backlog
            </ConsoleLink>
          )}
        </p>
      )}
      {data && data.total > 0 && (
        // Folded: the counts by client can be long, and the first review item should stay on the first screen.
        <details className={styles.notQueuedFold}>
          <summary>{data.total.toLocaleString('en')} not queued at once (24 h)</summary>
          <p>Threats and self-harm always go to the queue; other texts over a client&apos;s hourly quota wait in the backlog.</p>
          <ul>
            {data.counts.map((c) => (
              <li key={`${c.reason}-${c.client}`} data-testid="review-not-queued-reason" data-reason={c.reason} data-client={c.client}>
                {c.count.toLocaleString('en')} {why(c, config)}
              </li>
            ))}
          </ul>
        </details>
      )}
      {data?.recording_paused_until && (
        <p>Recording is paused after a database error until {new Date(data.recording_paused_until).toLocaleTimeString()}.</p>
      )}
    </div>
  );
}
