'use client';
/**
 * The review queue, built for triage (docs/decisions/065-review-queue-triage.md):
 *
 * - one item per distinct text, with its count and first/last sighting;
 * - filters by status (pending, confirmed, overturned, expired, all), issue, severity, source,
 *   date and a text search; pages load by cursor as the list scrolls (or with "Load more");
 * - a filter change aborts the request in flight and answers are applied only if they belong to
 *   the latest request, so a slow, older answer can never overwrite a newer one;
 * - keyboard shortcuts (j/k, c, o, n, x, u, ?), bulk select and act, a dense list view;
 * - a decision can be undone for a short while (the server keeps REVIEW_UNDO_SECONDS);
 * - with API_KEYS the decision is recorded against the signed-in key, not a typed name.
 *
 * Decisions that cannot reach the server wait in IndexedDB and sync when it is back.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { PRIMARY_ISSUES } from '@/lib/contracts/moderation';
import { DEFAULT_MODERATOR, REVIEW_SOURCES, REVIEW_STATUSES, SEVERITIES, type Decision, type ReviewItem } from '@/lib/contracts/reviews';
import { enqueueDecision, newDecisionId, queuedDecisions, syncQueuedDecisions } from '@/lib/browser/offline-decisions';
import { api, ApiError, type ReviewListFilters } from '@/lib/browser/vigil-api';
import { ErrorAlert } from './error-alert';
import { FilterSelect, optionsOf } from './filter-select';
import { ReviewItemView } from './review-item';
import { ShortcutsDialog } from './shortcuts-dialog';
import styles from './console.module.css';

const MODERATOR_KEY = 'vigil.moderator';
const DENSE_KEY = 'vigil.review.dense';
const SYNC_EVERY_MS = 15_000;
const PAGE = 50;
const SEARCH_DEBOUNCE_MS = 300;
/** How long the Undo button stays (the server allows REVIEW_UNDO_SECONDS, 120 s by default). */
const UNDO_SHOWN_MS = 30_000;

interface Filters {
  status: string;
  primary_issue: string;
  severity: string;
  source: string;
  q: string;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { status: 'pending', primary_issue: '', severity: '', source: '', q: '', from: '', to: '' };

/** The queue's select filters; "All" (the empty value) turns one off, except status, which has its own "all". */
const FILTER_SELECTS: { key: keyof Filters; id: string; label: string; options: { value: string; label: string }[]; allLabel?: string }[] =
  [
    { key: 'status', id: 'status', label: 'Status', options: optionsOf([...REVIEW_STATUSES, 'all']) },
    {
      key: 'primary_issue',
      id: 'issue',
      label: 'Primary issue',
      options: optionsOf(
        PRIMARY_ISSUES.filter((i) => i !== 'none'),
        (i) => i.replace(/_/g, ' '),
      ),
      allLabel: 'All',
    },
    { key: 'severity', id: 'severity', label: 'Severity', options: optionsOf(SEVERITIES), allLabel: 'All' },
    {
      key: 'source',
      id: 'source',
      label: 'Source',
      options: optionsOf(REVIEW_SOURCES, (s) => (s === 'text' ? 'single texts' : 'batches')),
      allLabel: 'All',
    },
  ];

/** Date inputs give local calendar days; the API takes instants: `to` is the end of that day. */
function toQuery(f: Filters): ReviewListFilters {
  const day = (d: string, plus = 0) => {
    const t = new Date(`${d}T00:00:00`);
    t.setDate(t.getDate() + plus);
    return t.toISOString();
  };
  return { ...f, from: f.from ? day(f.from) : '', to: f.to ? day(f.to, 1) : '' };
}

interface Undoable {
  items: ReviewItem[];
  decision: Decision;
  until: number;
}

export function ReviewTab({ active, onDecided }: { active: boolean; onDecided: () => void }) {
  const [moderator, setModerator] = useState(DEFAULT_MODERATOR);
  const [signedInAs, setSignedInAs] = useState<string | null>(null);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const [items, setItems] = useState<ReviewItem[]>([]);
  const [total, setTotal] = useState(0);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>();
  const [message, setMessage] = useState('');
  const [queued, setQueued] = useState(0);
  const [dense, setDense] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState(0);
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [undo, setUndo] = useState<Undoable | undefined>();
  const [help, setHelp] = useState(false);
  /** The dense list shows a note field only for the item `n` was pressed on (no layout shift while clicking). */
  const [noteFor, setNoteFor] = useState<string | undefined>();
  const request = useRef<{ seq: number; controller?: AbortController }>({ seq: 0 });
  const noteRef = useRef<HTMLInputElement | null>(null);
  const sentinel = useRef<HTMLDivElement | null>(null);
  const listRef = useRef<HTMLUListElement | null>(null);

  useEffect(() => {
    const saved = window.localStorage.getItem(MODERATOR_KEY);
    if (saved) setModerator(saved);
    setDense(window.localStorage.getItem(DENSE_KEY) === 'true');
    api.session().then(
      (s) => setSignedInAs(s.auth_required ? (s.moderator ?? null) : null),
      () => setSignedInAs(null),
    );
  }, []);

  // The search box filters after a pause in typing, not on every key.
  useEffect(() => {
    const t = setTimeout(() => setFilters((f) => (f.q === search.trim() ? f : { ...f, q: search.trim() })), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search]);

  const refreshQueued = useCallback(async () => {
    try {
      setQueued((await queuedDecisions()).length);
    } catch {
      setQueued(0);
    }
  }, []);

  /** Loads the first page (append=false) or the next one. Stale answers are dropped. */
  const load = useCallback(
    async (append: boolean, after: string | null = null) => {
      request.current.controller?.abort();
      const controller = new AbortController();
      const seq = ++request.current.seq;
      request.current.controller = controller;
      setLoading(true);
      if (!append) setError(undefined);
      try {
        const page = await api.listReviews({ ...toQuery(filters), cursor: after ?? undefined, limit: PAGE }, controller.signal);
        if (seq !== request.current.seq) return;
        // Items decided offline stay hidden until their decision has synced.
        const waiting = new Set((await queuedDecisions().catch(() => [])).map((d) => d.review_id));
        if (seq !== request.current.seq) return;
        const fresh = page.items.filter((i) => !waiting.has(i.review_id));
        setItems((xs) => {
          if (!append) return fresh;
          const have = new Set(xs.map((x) => x.review_id));
          return [...xs, ...fresh.filter((x) => !have.has(x.review_id))];
        });
        setTotal(page.total);
        setCursor(page.next_cursor);
        if (!append) {
          setSelected(new Set());
          setFocus(0);
        }
      } catch (err) {
        if ((err as Error).name === 'AbortError' || seq !== request.current.seq) return;
        setError(err);
      } finally {
        if (seq === request.current.seq) setLoading(false);
      }
    },
    [filters],
  );

  const sync = useCallback(async () => {
    try {
      const before = (await queuedDecisions()).length;
      if (before === 0) return;
      const outcome = await syncQueuedDecisions();
      if (outcome.synced > 0) {
        setMessage(`Synced ${outcome.synced} decision${outcome.synced === 1 ? '' : 's'} made while offline.`);
        onDecided();
      }
      if (outcome.dropped.length > 0)
        setError(new Error(`Dropped ${outcome.dropped.length} queued decision(s): ${outcome.dropped.map((d) => d.reason).join('; ')}`));
    } finally {
      await refreshQueued();
    }
  }, [onDecided, refreshQueued]);

  useEffect(() => {
    if (active) void load(false);
  }, [active, load]);

  useEffect(() => {
    void refreshQueued().then(() => sync());
    const onOnline = () => void sync().then(() => load(false));
    window.addEventListener('online', onOnline);
    const timer = setInterval(() => void sync(), SYNC_EVERY_MS);
    return () => {
      window.removeEventListener('online', onOnline);
      clearInterval(timer);
    };
  }, [sync, load, refreshQueued]);

  // Infinite scroll: the next page loads when the end of the list comes into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !cursor || !active) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !loading) void load(true, cursor);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [cursor, loading, load, active]);

  useEffect(() => {
    if (!undo) return;
    const t = setTimeout(() => setUndo(undefined), Math.max(0, undo.until - Date.now()));
    return () => clearTimeout(t);
  }, [undo]);

  const who = signedInAs ?? (moderator.trim() || DEFAULT_MODERATOR);

  async function decide(targets: ReviewItem[], decision: Decision) {
    const pending = targets.filter((t) => t.status === 'pending');
    if (pending.length === 0 || busy) return;
    setBusy(true);
    setError(undefined);
    const done: ReviewItem[] = [];
    let offline = 0;
    const failures: string[] = [];
    const failedIds = new Set<string>();
    try {
      for (const item of pending) {
        const body = { decision, moderator: who, note: (notes[item.review_id] ?? '').trim(), client_decision_id: newDecisionId() };
        try {
          const r = await api.decide(item.review_id, body);
          done.push(r.item);
        } catch (err) {
          if (err instanceof ApiError && !err.retryable) {
            failures.push(`${(item.text ?? '').slice(0, 40)}: ${err.message}`);
            failedIds.add(item.review_id);
            continue;
          }
          await enqueueDecision({ ...body, review_id: item.review_id, queued_at: new Date().toISOString() });
          offline++;
        }
      }
    } finally {
      setBusy(false);
    }
    // Decided now or queued offline: either way the item leaves the pending list.
    const gone = new Set(pending.filter((p) => !failedIds.has(p.review_id)).map((p) => p.review_id));
    const verb = decision === 'confirm' ? 'Confirmed' : 'Overturned';
    if (filters.status === 'pending') {
      setItems((xs) => xs.filter((x) => !gone.has(x.review_id)));
      setTotal((t) => Math.max(0, t - gone.size));
    } else {
      const byId = new Map(done.map((d) => [d.review_id, d]));
      setItems((xs) => xs.map((x) => byId.get(x.review_id) ?? x));
    }
    setSelected(new Set());
    setFocus((i) => Math.max(0, Math.min(i, items.length - gone.size - 1)));
    if (done.length > 0) {
      setMessage(`${verb} ${done.length === 1 ? '1 item' : `${done.length} items`} as ${who}.`);
      setUndo({ items: done, decision, until: Date.now() + UNDO_SHOWN_MS });
      onDecided();
    }
    if (offline > 0) {
      await refreshQueued();
      setMessage(
        `The server is unreachable: ${offline} decision${offline === 1 ? ' is' : 's are'} saved in this browser and will sync when it is back.`,
      );
    }
    if (failures.length > 0) setError(new Error(`${failures.length} decision(s) failed:\n${failures.join('\n')}`));
  }

  async function undoLast() {
    if (!undo) return;
    const { items: decided } = undo;
    setUndo(undefined);
    const restored: ReviewItem[] = [];
    const failures: string[] = [];
    for (const d of decided) {
      try {
        restored.push((await api.undoDecision(d.review_id)).item);
      } catch (err) {
        failures.push(err instanceof Error ? err.message : String(err));
      }
    }
    if (restored.length > 0) {
      setMessage(`Undone: ${restored.length === 1 ? '1 item is' : `${restored.length} items are`} pending again.`);
      onDecided();
      void load(false);
    }
    if (failures.length > 0) setError(new Error(failures.join('\n')));
  }

  // Keyboard shortcuts, listed in the dialog that `?` opens. Typing in a field never triggers them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: decide, undoLast and toggleSelected are new every render; the list names the state they read (undo, notes, who, busy) instead, so the listener is re-attached only when that state changes.
  const onKey = useCallback(
    (e: KeyboardEvent) => {
      if (!active || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target && (target.closest('input, textarea, select, [contenteditable="true"]') || target.closest('dialog'))) {
        if (e.key === 'Escape' && target.matches('[data-testid="review-note"]')) target.blur();
        return;
      }
      const item = items[focus];
      const handled = () => e.preventDefault();
      switch (e.key) {
        case 'j':
        case 'ArrowDown':
          if (e.key === 'ArrowDown' && !target?.closest('[data-testid="review-list"]')) return;
          handled();
          setFocus((i) => Math.min(items.length - 1, i + 1));
          break;
        case 'k':
        case 'ArrowUp':
          if (e.key === 'ArrowUp' && !target?.closest('[data-testid="review-list"]')) return;
          handled();
          setFocus((i) => Math.max(0, i - 1));
          break;
        case 'c':
          handled();
          if (item) void decide(selected.size > 0 ? items.filter((i) => selected.has(i.review_id)) : [item], 'confirm');
          break;
        case 'o':
          handled();
          if (item) void decide(selected.size > 0 ? items.filter((i) => selected.has(i.review_id)) : [item], 'overturn');
          break;
        case 'n':
          handled();
          if (item) setNoteFor(item.review_id);
          requestAnimationFrame(() => requestAnimationFrame(() => noteRef.current?.focus()));
          break;
        case 'x':
          handled();
          if (item) toggleSelected(item.review_id, !selected.has(item.review_id));
          break;
        case 'u':
          handled();
          void undoLast();
          break;
        case '?':
          handled();
          setHelp(true);
          break;
        default:
      }
    },
    [active, items, focus, selected, undo, notes, who, busy],
  );

  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onKey]);

  // The focused item stays in view as j/k move through the list.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus is the trigger: the DOM query finds the newly focused row.
  useEffect(() => {
    listRef.current?.querySelector('[data-focused="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [focus]);

  function toggleSelected(id: string, on: boolean) {
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  const setFilter = (k: keyof Filters, v: string) => setFilters((f) => ({ ...f, [k]: v }));
  const filtered = filters.primary_issue || filters.severity || filters.source || filters.q || filters.from || filters.to;
  const selectedItems = items.filter((i) => selected.has(i.review_id));
  const allSelected = items.length > 0 && selectedItems.length === items.length;

  return (
    <div>
      <div className="field-row">
        {signedInAs ? (
          <p className="muted" data-testid="moderator-identity">
            Decisions are recorded as <strong>{signedInAs}</strong>, the key you signed in with.
          </p>
        ) : (
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
              Recorded with each decision. With API keys configured, the signed-in key is recorded instead.
            </span>
          </div>
        )}
      </div>
      <fieldset className={styles.filters} data-testid="review-filters">
        <legend>Filters</legend>
        {FILTER_SELECTS.map((f) => (
          <FilterSelect
            key={f.key}
            id={`review-${f.id}`}
            testId={`review-filter-${f.id}`}
            label={f.label}
            value={filters[f.key]}
            onChange={(v) => setFilter(f.key, v)}
            options={f.options}
            allLabel={f.allLabel}
          />
        ))}
        <div className="field">
          <label htmlFor="review-from">Seen from</label>
          <input
            id="review-from"
            type="date"
            data-testid="review-filter-from"
            value={filters.from}
            onChange={(e) => setFilter('from', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="review-to">Seen until</label>
          <input
            id="review-to"
            type="date"
            data-testid="review-filter-to"
            value={filters.to}
            onChange={(e) => setFilter('to', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="review-search">Search text</label>
          <input
            id="review-search"
            type="search"
            data-testid="review-search"
            value={search}
            maxLength={200}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </fieldset>
      <div className={styles.toolbar}>
        <button type="button" className="secondary" data-testid="review-refresh" onClick={() => void load(false)} disabled={loading}>
          {loading ? 'Loading…' : 'Refresh'}
        </button>
        <label className={styles.inlineCheck}>
          <input
            type="checkbox"
            data-testid="review-dense"
            checked={dense}
            onChange={(e) => {
              setDense(e.target.checked);
              window.localStorage.setItem(DENSE_KEY, String(e.target.checked));
            }}
          />
          Dense list
        </label>
        <button type="button" className="secondary" data-testid="review-shortcuts" onClick={() => setHelp(true)} aria-keyshortcuts="?">
          Keyboard shortcuts (?)
        </button>
      </div>
      <div aria-live="polite">
        {queued > 0 && (
          <p className="alert alert-warn" data-testid="review-queued">
            {queued} decision{queued === 1 ? '' : 's'} waiting to sync.{' '}
            <button type="button" className="secondary" onClick={() => void sync().then(() => load(false))}>
              Sync now
            </button>
          </p>
        )}
        {message && (
          <p className="alert alert-ok" data-testid="review-message">
            {message}{' '}
            {undo && (
              <button type="button" className="secondary" data-testid="review-undo" onClick={() => void undoLast()} aria-keyshortcuts="u">
                Undo
              </button>
            )}
          </p>
        )}
        {error !== undefined && (
          <ErrorAlert
            error={error instanceof ApiError ? error : undefined}
            message={error instanceof ApiError ? undefined : (error as Error).message.split('\n')[0]}
            lines={error instanceof ApiError ? undefined : (error as Error).message.split('\n').slice(1)}
            testId="review-error"
          />
        )}
        <p className="muted" data-testid="review-count" data-total={total} data-shown={items.length}>
          {total} {filters.status === 'all' ? 'items' : filters.status}
          {filtered ? ' (filtered)' : ''}, newest first{items.length < total ? `; ${items.length} loaded` : ''}.
        </p>
      </div>
      {items.length > 0 && (
        <div className={styles.bulkBar} data-testid="review-bulk">
          <label className={styles.inlineCheck}>
            <input
              type="checkbox"
              data-testid="review-select-all"
              checked={allSelected}
              onChange={(e) => setSelected(e.target.checked ? new Set(items.map((i) => i.review_id)) : new Set())}
            />
            Select all loaded
          </label>
          {selectedItems.length > 0 && (
            <>
              <span data-testid="review-selected-count">{selectedItems.length} selected</span>
              <button type="button" data-testid="review-bulk-confirm" disabled={busy} onClick={() => void decide(selectedItems, 'confirm')}>
                Confirm selected
              </button>
              <button
                type="button"
                className="secondary"
                data-testid="review-bulk-overturn"
                disabled={busy}
                onClick={() => void decide(selectedItems, 'overturn')}
              >
                Overturn selected
              </button>
            </>
          )}
        </div>
      )}
      {items.length === 0 && !loading ? (
        <p className="muted" data-testid="review-empty">
          {filtered || filters.status !== 'pending' ? 'Nothing matches these filters.' : 'Nothing to review: the queue is empty.'}
        </p>
      ) : (
        <ul
          className={dense ? styles.denseList : styles.reviewList}
          data-testid="review-list"
          data-dense={dense}
          ref={listRef}
          aria-label="Review items"
        >
          {items.map((item, i) => (
            <ReviewItemView
              key={item.review_id}
              item={item}
              dense={dense}
              focused={i === focus}
              showNote={!dense || noteFor === item.review_id}
              selected={selected.has(item.review_id)}
              busy={busy}
              noteRef={i === focus ? noteRef : undefined}
              note={notes[item.review_id] ?? ''}
              onNote={(n) => setNotes((ns) => ({ ...ns, [item.review_id]: n }))}
              onSelect={(on) => toggleSelected(item.review_id, on)}
              onFocus={() => setFocus(i)}
              onDecide={(d) => void decide([item], d)}
            />
          ))}
        </ul>
      )}
      <div ref={sentinel} aria-hidden="true" />
      {cursor && (
        <button type="button" className="secondary" data-testid="review-more" disabled={loading} onClick={() => void load(true, cursor)}>
          Load more ({total - items.length} not loaded)
        </button>
      )}
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}
