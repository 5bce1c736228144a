'use client';
/**
 * Where the keyboard is in the review queue: the current item stays in view as j/k move (only
 * then: scrolling on a click would move the button between mouse down and up), and the focus
 * stays on the current item after every action (a decision that removes the focused row, or a
 * reload, would drop it to the page). `focusCurrent` brings the focus back to the current item
 * (Esc from any of its fields, and j/k from outside the list).
 */
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { ReviewItem } from '@/lib/contracts/reviews';

const current = (list: HTMLElement | null) => list?.querySelector<HTMLElement>('[data-focused="true"]') ?? null;

export function useReviewFocus(active: boolean, focus: number, items: ReviewItem[], listRef: RefObject<HTMLUListElement | null>) {
  const scrollToFocus = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus is the trigger: the DOM query finds the newly focused row.
  useEffect(() => {
    if (!scrollToFocus.current) return;
    scrollToFocus.current = false;
    current(listRef.current)?.scrollIntoView({ block: 'nearest' });
  }, [focus]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus and items are the triggers.
  useEffect(() => {
    if (!active) return;
    const el = document.activeElement;
    const lost = !el || el === document.body || !el.isConnected;
    if (!lost && !listRef.current?.contains(el)) return;
    const row = current(listRef.current);
    if (row && !row.contains(el)) row.focus({ preventScroll: !lost });
  }, [focus, items, active]);

  const focusCurrent = useCallback(() => {
    const row = current(listRef.current);
    row?.focus();
    row?.scrollIntoView({ block: 'nearest' });
  }, [listRef]);

  return { scrollToFocus, focusCurrent };
}
