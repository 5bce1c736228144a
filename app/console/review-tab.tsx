'use client';
/**
 * The review queue, built for triage (docs/decisions/065-review-queue-triage.md, 160):
 *
 * - one item per distinct text, filtered and paged by cursor (use-review-list.ts);
 * - a decision needs a reason code from the server's list that fits it, plus an optional note;
 *   each item's reason and note are its own and are cleared once its decision is taken;
 * - keyboard shortcuts, bulk select and act (one reason for the selection), a dense list view;
 * - Undo stays as long as the server accepts it (REVIEW_UNDO_SECONDS from /api/v1/reviews/config);
 *   a decided item can be reopened at any time; both are recorded against the moderator;
 * - flagged texts that were not queued (quota, eviction) are counted above the list;
 * - with API_KEYS the decision is recorded against the signed-in key, not a typed name.
 *
 * Decisions that cannot reach the server wait in IndexedDB and sync when it is back.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_MODERATOR } from '@/lib/contracts/reviews';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import { api } from '@/lib/browser/vigil-api';
import { ModeratorField } from './moderator-field';
import { NotQueuedNotice } from './not-queued-notice';
import { ReviewBulkBar } from './review-bulk-bar';
import { isFiltered, NO_FILTERS, ReviewFilters, ReviewSearch, type Filters } from './review-filters';
import { ReviewItemView } from './review-item';
import { ReviewStatus } from './review-status';
import { ReviewToolbar } from './review-toolbar';
import { useDecisionInputs } from './use-decision-inputs';
import { BULK, useReviewActions } from './use-review-actions';
import { ShortcutsDialog } from './shortcuts-dialog';
import { useReviewList } from './use-review-list';
import { useReviewShortcuts } from './use-review-shortcuts';
import styles from './console.module.css';

const DENSE_KEY = 'vigil.review.dense';
const SEARCH_DEBOUNCE_MS = 300;

export function ReviewTab({ active, onDecided }: { active: boolean; onDecided: () => void }) {
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
  const reasonRef = useRef<HTMLSelectElement | null>(null);
  const listRef = useRef<HTMLUListElement | null>(null);
  const scrollToFocus = useRef(false);
  const list = useReviewList(active, filters, onDecided, setMessage);
  const { items, total, cursor, loading, error } = list;

  useEffect(() => {
    setDense(window.localStorage.getItem(DENSE_KEY) === 'true');
    api.reviewConfig().then(setConfig, () => setConfig(undefined));
  }, []);

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

  const input = inputs.get;
  const setInput = inputs.set;
  const problems = inputs.problems;
  const { decide, takeBack, pull, claim, busy, undo } = useReviewActions({
    who,
    config,
    filters,
    inputs,
    list,
    reasonRef,
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
    claim: (item) => void claim(item, item.claimed_by === who),
    reason: (item, n) => {
      const code = config?.reason_codes[n - 1]?.code;
      if (code) setInput(item.review_id, { reason: code });
    },
    help: () => setHelp(true),
  });

  // The focused item stays in view as j/k move through the list. Only then: scrolling when a click
  // focuses an item would move the button between mouse down and up, and the click would be lost.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus is the trigger: the DOM query finds the newly focused row.
  useEffect(() => {
    if (!scrollToFocus.current) return;
    scrollToFocus.current = false;
    listRef.current?.querySelector('[data-focused="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [focus]);

  // Focus stays on the current item after every action: when a decision removes the focused row
  // (or a reload replaces the list), the browser drops focus to the page; it goes to the item now
  // current instead, so the next key acts on it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus and items are the triggers.
  useEffect(() => {
    if (!active) return;
    const current = document.activeElement;
    const lost = !current || current === document.body || !current.isConnected;
    if (!lost && !listRef.current?.contains(current)) return;
    const row = listRef.current?.querySelector<HTMLElement>('[data-focused="true"]');
    if (row && !row.contains(current)) row.focus({ preventScroll: !lost });
  }, [focus, items, active]);

  const filtered = isFiltered(filters);
  const selectedItems = items.filter((i) => selected.has(i.review_id));

  return (
    <div>
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
        notice={
          <NotQueuedNotice
            refresh={notQueuedRefresh}
            config={config}
            inBacklog={filters.status === 'backlog'}
            onOpenBacklog={() => setFilters((f) => ({ ...f, status: 'backlog' }))}
          />
        }
        queued={list.queued}
        onSync={() => void list.sync().then(() => list.load(false))}
        message={message}
        undo={undo && { until: undo.until, run: () => void takeBack(undo.items, 'undo') }}
        error={error}
        total={total}
        shown={items.length}
        count={`${total} ${filters.status === 'all' ? 'items' : filters.status}${filtered ? ' (filtered)' : ''}, worst first (self-harm and threats, then severity), then oldest${items.length < total ? `; ${items.length} loaded` : ''}.`}
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
      {items.length === 0 && !loading ? (
        // After a failed load the error says what happened; "empty" would be a guess.
        error === undefined && (
          <p className="muted" data-testid="review-empty">
            {filtered || filters.status !== 'pending' ? 'Nothing matches these filters.' : 'Nothing to review: the queue is empty.'}
          </p>
        )
      ) : (
        <ul
          className={dense ? styles.denseList : styles.reviewList}
          data-testid="review-list"
          data-dense={dense}
          ref={listRef}
          id="review-list"
          aria-label="Review items"
        >
          {items.map((item, i) => (
            <ReviewItemView
              key={item.review_id}
              item={item}
              dense={dense}
              focused={i === focus}
              showInputs={!dense || noteFor === item.review_id || problems[item.review_id] !== undefined}
              selected={selected.has(item.review_id)}
              busy={busy}
              noteRef={i === focus ? noteRef : undefined}
              reasonRef={i === focus ? reasonRef : undefined}
              config={config}
              inputs={input(item.review_id)}
              problem={problems[item.review_id]}
              onInputs={(patch) => setInput(item.review_id, patch)}
              onSelect={(on) => toggleSelected(item.review_id, on)}
              onFocus={() => setFocus(i)}
              onDecide={(d) => void decide([item], d, false)}
              onReopen={() => void takeBack([item], 'reopen')}
              onPull={() => void pull([item])}
              who={who}
              onClaim={(release) => void claim(item, release)}
            />
          ))}
        </ul>
      )}
      <div ref={list.sentinel} aria-hidden="true" />
      {cursor && (
        <button
          type="button"
          className="secondary"
          data-testid="review-more"
          disabled={loading}
          onClick={() => void list.load(true, cursor)}
        >
          Load more ({total - items.length} not loaded)
        </button>
      )}
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}
