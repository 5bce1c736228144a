'use client';
/**
 * The review queue's list: the first page for the current filters or the next by cursor, stale
 * answers dropped (each request has an AbortController and a sequence number, and only the latest
 * one's answer is applied), infinite scroll, and the offline decisions synced on load, on
 * `online` and every 15 s (items decided offline stay hidden until theirs has synced).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReviewItem } from '@/lib/contracts/reviews';
import { queuedDecisions, syncQueuedDecisions } from '@/lib/browser/offline-decisions';
import { api } from '@/lib/browser/vigil-api';
import { toQuery, type Filters } from './review-filters';

const SYNC_EVERY_MS = 15_000;
const PAGE = 50;

export function useReviewList(active: boolean, filters: Filters, onDecided: () => void, onMessage: (m: string) => void) {
  const [items, setItems] = useState<ReviewItem[]>([]);
  const [total, setTotal] = useState(0);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>();
  const [queued, setQueued] = useState(0);
  const [loadedAt, setLoadedAt] = useState(0);
  const request = useRef<{ seq: number; controller?: AbortController }>({ seq: 0 });
  const sentinel = useRef<HTMLDivElement | null>(null);

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
        if (!append) setLoadedAt((n) => n + 1);
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
      if ((await queuedDecisions()).length === 0) return;
      const outcome = await syncQueuedDecisions();
      if (outcome.synced > 0) {
        onMessage(`Synced ${outcome.synced} decision${outcome.synced === 1 ? '' : 's'} made while offline.`);
        onDecided();
      }
      if (outcome.dropped.length > 0)
        setError(new Error(`Dropped ${outcome.dropped.length} queued decision(s): ${outcome.dropped.map((d) => d.reason).join('; ')}`));
    } finally {
      await refreshQueued();
    }
  }, [onDecided, onMessage, refreshQueued]);

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

  return { items, setItems, total, setTotal, cursor, loading, error, setError, queued, refreshQueued, load, sync, sentinel, loadedAt };
}
