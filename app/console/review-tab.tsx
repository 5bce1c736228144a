'use client';
/**
 * The review queue, built for triage (docs/decisions/065-review-queue-triage.md, 160, 205, 207):
 *
 * - one item per distinct text, filtered and paged by cursor (use-review-list.ts); the address
 *   (`/console/review?status=backlog`, `?job=<id>`, `?q=`) opens the backlog, a job's flagged rows
 *   or a search, and a bar says which view is shown, with the way back to the queue;
 * - a decision needs a reason code from the server's list that fits it, plus an optional note;
 *   each item's reason and note are its own and are cleared once its decision is taken;
 * - keyboard shortcuts that never trap the focus, bulk select and act, a dense list view;
 * - Undo stays as long as the server accepts it (REVIEW_UNDO_SECONDS from /api/v1/reviews/config);
 *   a decided item can be reopened at any time; both are recorded against the moderator;
 * - claims belong to this browser (or its signed-in key), and other moderators' claims show without
 *   a reload (use-claims-poll.ts); flagged texts that were not queued are counted above the list.
 *
 * Decisions that cannot reach the server wait in IndexedDB and sync when it is back.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_MODERATOR } from '@/lib/contracts/reviews';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import type { ReviewRoute } from '@/lib/browser/console-route';
import { api } from '@/lib/browser/vigil-api';
import { useJobs } from './jobs-context';
import { ModeratorField } from './moderator-field';
import { NotQueuedNotice } from './not-queued-notice';
import { ReviewBulkBar } from './review-bulk-bar';
import { isFiltered, NO_FILTERS, ReviewFilters, ReviewSearch, type Filters } from './review-filters';
import { ReviewItemView } from './review-item';
import { ReviewItems } from './review-items';
import { ReviewStatus } from './review-status';
import { ReviewToolbar } from './review-toolbar';
import { ReviewViewBar } from './review-view-bar';
import { useClaimsPoll } from './use-claims-poll';
import { useDecisionInputs } from './use-decision-inputs';
import { BULK, useReviewActions } from './use-review-actions';
import { useReviewFocus } from './use-review-focus';
import { ShortcutsDialog } from './shortcuts-dialog';
import { useReviewList } from './use-review-list';
import { useReviewShortcuts } from './use-review-shortcuts';
import styles from './console.module.css';

const DENSE_KEY = 'vigil.review.dense';
const SEARCH_DEBOUNCE_MS = 300;

interface ReviewTabProps {
  active: boolean;
  /** The view the address asks for (backlog, a job's rows, a search). */
  route: ReviewRoute;
  onDecided: () => void;
}

export function ReviewTab({ active, route, onDecided }: ReviewTabProps) {
  const [who, setWho] = useState(DEFAULT_MODERATOR);
  const [config, setConfig] = useState<ReviewConfig | undefined>();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const [message, setMessage] = useState('');
  const [dense, setDense] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState(0);
  const inputs = useDecisionInputs();
  const [help, setHelp] = useState(false);
  const [noteFor, setNoteFor] = useState<string | undefined>();
  const [notQueuedRefresh, setNotQueuedRefresh] = useState(0);
  const noteRef = useRef<HTMLInputElement | null>(null);
  const listRef = useRef<HTMLUListElement | null>(null);
  const list = useReviewList(active, filters, onDecided, setMessage);
  const { items, total, cursor, loading, error } = list;
  const { state: jobsState } = useJobs();
  const { scrollToFocus, focusCurrent } = useReviewFocus(active, focus, items, listRef);
  useClaimsPoll(active, list.setItems);

  useEffect(() => {
    setDense(window.localStorage.getItem(DENSE_KEY) === 'true');
    api.reviewConfig().then(setConfig, () => setConfig(undefined));
  }, []);

  // The address decides the view: a link to the backlog, to a job's rows or back to the queue.
  useEffect(() => {
    setFilters({ ...NO_FILTERS, status: route.status ?? 'pending', job_id: route.job ?? '', q: route.q ?? '' });
    setSearch(route.q ?? '');
  }, [route]);

  useEffect(() => {
    const t = setTimeout(() => setFilters((f) => (f.q === search.trim() ? f : { ...f, q: search.trim() })), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search]);

  // A new first page: nothing selected, focus on top, and the not-queued count read again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: loadedAt is the trigger.
  useEffect(() => {
    setSelected(new Set());
    setFocus(0);
    setNotQueuedRefresh((n) => n + 1);
  }, [list.loadedAt]);

  const { get: input, set: setInput, problems } = inputs;
  const { decide, takeBack, pull, claim, busy, undo } = useReviewActions({
    who,
    config,
    filters,
    inputs,
    list,
    onDecided,
    setMessage,
    setSelected,
    setFocus,
    refreshNotQueued: () => setNotQueuedRefresh((r) => r + 1),
  });

  const toggleSelected = useCallback((id: string, on: boolean) => {
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  useReviewShortcuts({
    active,
    items,
    focus,
    selected,
    setFocus: (f) => {
      scrollToFocus.current = true;
      setFocus(f);
    },
    decide: (targets, d) => void decide(targets, d, selected.size > 0),
    note: (item) => {
      setNoteFor(item.review_id);
      requestAnimationFrame(() => requestAnimationFrame(() => noteRef.current?.focus()));
    },
    toggle: toggleSelected,
    undo: () => undo && void takeBack(undo.items, 'undo'),
    claim: (item) => void claim(item, item.claimed_by_you),
    reason: (item, n) => {
      const code = config?.reason_codes[n - 1]?.code;
      if (code) setInput(item.review_id, { reason: code });
    },
    help: () => setHelp(true),
    focusItem: focusCurrent,
  });

  const filtered = isFiltered(filters);
  const selectedItems = items.filter((i) => selected.has(i.review_id));
  const view = filters.job_id ? 'flagged rows' : filters.status === 'all' ? 'items' : filters.status;

  return (
    <div data-review-panel="">
      {items.length > 0 && (
        // The panel's first Tab stop: straight to the first item, past the settings above the list.
        <button
          type="button"
          className={styles.skipToItem}
          data-testid="review-skip"
          onClick={() => {
            setFocus(0);
            listRef.current?.querySelector<HTMLElement>('[data-testid="review-item"]')?.focus();
          }}
        >
          Skip to the first item
        </button>
      )}
      <ReviewViewBar status={filters.status} jobId={filters.job_id} jobs={jobsState.jobs} />
      <div className={styles.toolbar}>
        <ModeratorField onChange={setWho} />
        <ReviewSearch search={search} onSearch={setSearch} />
      </div>
      <ReviewToolbar
        loading={loading}
        onRefresh={() => void list.load(false)}
        dense={dense}
        onDense={(d) => {
          setDense(d);
          window.localStorage.setItem(DENSE_KEY, String(d));
        }}
        onHelp={() => setHelp(true)}
        filters={<ReviewFilters filters={filters} onFilter={(k, v) => setFilters((f) => ({ ...f, [k]: v }))} />}
      />
      <ReviewStatus
        notice={<NotQueuedNotice refresh={notQueuedRefresh} config={config} inBacklog={filters.status === 'backlog'} />}
        queued={list.queued}
        onSync={() => void list.sync().then(() => list.load(false))}
        message={message}
        undo={undo && { until: undo.until, run: () => void takeBack(undo.items, 'undo') }}
        error={error}
        total={total}
        shown={items.length}
        count={
          <>
            {total} {view}
            {filtered ? ' (filtered)' : ''}, worst first
            <span className={styles.wideOnly}> (self-harm, then threats, each by severity, then severity and score), then oldest</span>
            {items.length < total ? `; ${items.length} loaded` : ''}.
          </>
        }
      />
      {items.length > 0 && (
        <ReviewBulkBar
          allSelected={selectedItems.length === items.length}
          selectedCount={selectedItems.length}
          onSelectAll={(on) => setSelected(on ? new Set(items.map((i) => i.review_id)) : new Set())}
          busy={busy}
          config={config}
          reason={input(BULK).reason}
          onReason={(reason) => setInput(BULK, { reason })}
          note={input(BULK).note}
          onNote={(note) => setInput(BULK, { note })}
          problem={problems[BULK]}
          onDecide={(d) => void decide(selectedItems, d, true)}
          onPull={filters.status === 'backlog' ? () => void pull(selectedItems) : undefined}
        />
      )}
      <ReviewItems
        items={items}
        loading={loading}
        error={error}
        narrowed={filtered || filters.status !== 'pending' || filters.job_id !== ''}
        dense={dense}
        listRef={listRef}
        more={cursor ? { cursor, left: total - items.length } : undefined}
        onMore={(after) => void list.load(true, after)}
        renderItem={(item, i) => (
          <ReviewItemView
            key={item.review_id}
            item={item}
            dense={dense}
            focused={i === focus}
            noteOpen={noteFor === item.review_id}
            selected={selected.has(item.review_id)}
            busy={busy}
            noteRef={i === focus ? noteRef : undefined}
            config={config}
            inputs={input(item.review_id)}
            problem={problems[item.review_id]}
            onInputs={(patch) => setInput(item.review_id, patch)}
            onSelect={(on) => toggleSelected(item.review_id, on)}
            onFocus={() => setFocus(i)}
            onDecide={(d) => void decide([item], d, false)}
            onReopen={() => void takeBack([item], 'reopen')}
            onPull={() => void pull([item])}
            onClaim={(release) => void claim(item, release)}
            jobs={jobsState.jobs}
          />
        )}
      />
      <div ref={list.sentinel} aria-hidden="true" />
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}
