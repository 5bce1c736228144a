'use client';
/**
 * The review queue: pending server verdicts, newest first, filterable by primary issue and
 * severity. Confirm (harmful) or overturn (false positive) with an optional note. Who decides
 * comes from the moderator field (remembered in localStorage; no authentication exists yet).
 * Decisions that cannot reach the server wait in IndexedDB and sync when it is back.
 */
import { useCallback, useEffect, useState } from 'react';
import { PRIMARY_ISSUES } from '@/lib/contracts/moderation';
import { DEFAULT_MODERATOR, SEVERITIES, type Decision, type ReviewItem } from '@/lib/contracts/reviews';
import { enqueueDecision, newDecisionId, queuedDecisions, syncQueuedDecisions } from '@/lib/browser/offline-decisions';
import { api, ApiError, describeError } from '@/lib/browser/vigil-api';
import styles from './console.module.css';

const MODERATOR_KEY = 'vigil.moderator';
const SYNC_EVERY_MS = 15_000;
const PAGE = 50;

function ReviewCard({ item, onDecide }: { item: ReviewItem; onDecide: (item: ReviewItem, decision: Decision, note: string) => Promise<void> }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const noteId = `note-${item.review_id}`;
  const act = async (d: Decision) => {
    setBusy(true);
    try {
      await onDecide(item, d, note);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className={styles.reviewCard} data-testid="review-item" data-review-id={item.review_id}>
      <p className={styles.reviewText} data-testid="review-text">
        {item.text ?? <em className="muted">text deleted (retention)</em>}
      </p>
      <p className={styles.reviewMeta}>
        <span className={`badge badge-${item.summary}`}>{item.summary.replace(/_/g, ' ')}</span>{' '}
        <span className={`badge badge-${item.severity}`}>{item.severity}</span> <span>{item.primary_issue.replace(/_/g, ' ')}</span> ·{' '}
        <span>score {item.score.toFixed(2)}</span> · <time dateTime={item.created_at}>{new Date(item.created_at).toLocaleString()}</time>
      </p>
      <div className="field-row">
        <div className="field">
          <label htmlFor={noteId}>Note (optional)</label>
          <input id={noteId} data-testid="review-note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
        </div>
        <div className="field">
          <div className={styles.actions}>
            <button type="button" data-testid="review-confirm" disabled={busy} onClick={() => void act('confirm')}>
              Confirm harmful
            </button>
            <button type="button" className="secondary" data-testid="review-overturn" disabled={busy} onClick={() => void act('overturn')}>
              Overturn (false positive)
            </button>
          </div>
        </div>
      </div>
    </li>
  );
}

export function ReviewTab({ active, onDecided }: { active: boolean; onDecided: () => void }) {
  const [moderator, setModerator] = useState(DEFAULT_MODERATOR);
  const [issue, setIssue] = useState('');
  const [severity, setSeverity] = useState('');
  const [items, setItems] = useState<ReviewItem[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [queued, setQueued] = useState(0);
  const [limit, setLimit] = useState(PAGE);

  useEffect(() => {
    const saved = window.localStorage.getItem(MODERATOR_KEY);
    if (saved) setModerator(saved);
  }, []);

  const refreshQueued = useCallback(async () => {
    try {
      setQueued((await queuedDecisions()).length);
    } catch {
      setQueued(0);
    }
  }, []);

  const load = useCallback(async () => {
    setLoading(true);
    setError('');
    try {
      const list = await api.listReviews({ status: 'pending', primary_issue: issue, severity, limit });
      // Items decided offline stay hidden until their decision has synced.
      const waiting = new Set((await queuedDecisions().catch(() => [])).map((d) => d.review_id));
      setItems(list.items.filter((i) => !waiting.has(i.review_id)));
      setTotal(list.total);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setLoading(false);
    }
  }, [issue, severity, limit]);

  const sync = useCallback(async () => {
    try {
      const before = (await queuedDecisions()).length;
      if (before === 0) return;
      const outcome = await syncQueuedDecisions();
      if (outcome.synced > 0) {
        setMessage(`Synced ${outcome.synced} decision${outcome.synced === 1 ? '' : 's'} made while offline.`);
        onDecided();
      }
      if (outcome.dropped.length > 0) setError(`Dropped ${outcome.dropped.length} queued decision(s): ${outcome.dropped.map((d) => d.reason).join('; ')}`);
    } finally {
      await refreshQueued();
    }
  }, [onDecided, refreshQueued]);

  useEffect(() => {
    if (active) void load();
  }, [active, load]);

  useEffect(() => {
    void refreshQueued().then(() => sync());
    const onOnline = () => void sync().then(() => load());
    window.addEventListener('online', onOnline);
    const timer = setInterval(() => void sync(), SYNC_EVERY_MS);
    return () => {
      window.removeEventListener('online', onOnline);
      clearInterval(timer);
    };
  }, [sync, load, refreshQueued]);

  async function decide(item: ReviewItem, decision: Decision, note: string) {
    const who = moderator.trim() || DEFAULT_MODERATOR;
    const body = { decision, moderator: who, note: note.trim(), client_decision_id: newDecisionId() };
    setError('');
    try {
      await api.decide(item.review_id, body);
      setMessage(`${decision === 'confirm' ? 'Confirmed' : 'Overturned'} by ${who}.`);
      onDecided();
    } catch (err) {
      if (!(err instanceof ApiError) || !err.retryable) {
        setError(describeError(err));
        if (err instanceof ApiError && err.status === 404) setItems((xs) => xs.filter((x) => x.review_id !== item.review_id));
        return;
      }
      await enqueueDecision({ ...body, review_id: item.review_id, queued_at: new Date().toISOString() });
      await refreshQueued();
      setMessage('The server is unreachable: the decision is saved in this browser and will sync when it is back.');
    }
    setItems((xs) => xs.filter((x) => x.review_id !== item.review_id));
    setTotal((t) => Math.max(0, t - 1));
  }

  return (
    <div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="moderator-name">Moderator name</label>
          <input
            id="moderator-name"
            data-testid="moderator-name"
            value={moderator}
            maxLength={100}
            onChange={(e) => {
              setModerator(e.target.value);
              window.localStorage.setItem(MODERATOR_KEY, e.target.value);
            }}
            aria-describedby="moderator-hint"
          />
          <span id="moderator-hint" className="hint">
            Recorded with each decision (no sign-in yet).
          </span>
        </div>
        <div className="field">
          <label htmlFor="review-issue">Primary issue</label>
          <select id="review-issue" data-testid="review-filter-issue" value={issue} onChange={(e) => setIssue(e.target.value)}>
            <option value="">All</option>
            {PRIMARY_ISSUES.filter((i) => i !== 'none').map((i) => (
              <option key={i} value={i}>
                {i.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="review-severity">Severity</label>
          <select id="review-severity" data-testid="review-filter-severity" value={severity} onChange={(e) => setSeverity(e.target.value)}>
            <option value="">All</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <button type="button" className="secondary" data-testid="review-refresh" onClick={() => void load()} disabled={loading}>
            {loading ? 'Loading…' : 'Refresh'}
          </button>
        </div>
      </div>
      <div aria-live="polite">
        {queued > 0 && (
          <p className="alert alert-warn" data-testid="review-queued">
            {queued} decision{queued === 1 ? '' : 's'} waiting to sync.{' '}
            <button type="button" className="secondary" onClick={() => void sync().then(() => load())}>
              Sync now
            </button>
          </p>
        )}
        {message && (
          <p className="alert alert-ok" data-testid="review-message">
            {message}
          </p>
        )}
        {error && (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        )}
        <p className="muted" data-testid="review-count">
          {total} pending{issue || severity ? ' (filtered)' : ''}, newest first.
        </p>
      </div>
      {items.length === 0 && !loading ? (
        <p className="muted">Nothing to review.</p>
      ) : (
        <ul className={styles.reviewList}>
          {items.map((item) => (
            <ReviewCard key={item.review_id} item={item} onDecide={decide} />
          ))}
        </ul>
      )}
      {total > items.length && items.length >= limit && limit < 200 && (
        <button type="button" className="secondary" onClick={() => setLimit((l) => Math.min(200, l + PAGE))}>
          Show more ({total - items.length} not shown)
        </button>
      )}
    </div>
  );
}
