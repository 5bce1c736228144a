'use client';
/** Whether the text moderated on the server reached the review queue, found by its hash. */
import type { ReviewItem } from '@/lib/contracts/reviews';
import { normaliseForHash } from '@/lib/reviews/normalise-text';

/** The queue's identity of a text (lib/reviews/text-hash.ts), computed in the browser. */
export async function textHashInBrowser(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(normaliseForHash(text)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export type QueueState =
  | { state: 'looking' }
  | { state: 'queued'; item: ReviewItem }
  | { state: 'not-queued'; why: string }
  | { state: 'unknown' };

export function QueueNote({ queue }: { queue: QueueState }) {
  if (queue.state === 'unknown') return null;
  return (
    <p className="muted" data-testid="moderate-queued" data-state={queue.state}>
      {queue.state === 'looking' && 'Looking for this text in the review queue…'}
      {queue.state === 'not-queued' && queue.why}
      {queue.state === 'queued' && (
        <>
          Queued for review <time dateTime={queue.item.first_seen_at}>{new Date(queue.item.first_seen_at).toLocaleString()}</time>
          {queue.item.seen_count > 1 && (
            <>
              {' '}
              · seen {queue.item.seen_count} times, last{' '}
              <time dateTime={queue.item.last_seen_at}>{new Date(queue.item.last_seen_at).toLocaleString()}</time>
            </>
          )}
          {queue.item.status !== 'pending' && <> · {queue.item.status}</>}.
        </>
      )}
    </p>
  );
}
