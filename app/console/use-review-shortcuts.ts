'use client';
/**
 * The review queue's keyboard shortcuts (listed in the dialog `?` opens): j/k move, c/o decide
 * (the selection, else the focused item), n note, x select, u undo, m claim, 1–9 the focused item's
 * reason (the server's list, in order). Typing in a field never triggers them; an item's selection
 * box is not a text field, so they work while it has the focus. Nothing traps the keyboard: Esc in
 * any field of the queue brings the focus back to the current item, and j or k from outside the
 * list first go to the current item. One listener reads the latest state through a ref, so it is attached once.
 */
import { useEffect, useRef } from 'react';
import type { Decision, ReviewItem } from '@/lib/contracts/reviews';

export interface ShortcutActions {
  active: boolean;
  items: ReviewItem[];
  focus: number;
  selected: Set<string>;
  setFocus: (f: (i: number) => number) => void;
  decide: (targets: ReviewItem[], decision: Decision) => void;
  note: (item: ReviewItem) => void;
  toggle: (id: string, on: boolean) => void;
  undo: () => void;
  /** Sets the focused item's reason to the server's `n`th reason code (1-based). */
  reason: (item: ReviewItem, n: number) => void;
  /** Claims the focused item, or releases this moderator's claim on it. */
  claim: (item: ReviewItem) => void;
  help: () => void;
  /** Puts the keyboard focus on the current item. */
  focusItem: () => void;
}

export function useReviewShortcuts(actions: ShortcutActions): void {
  const latest = useRef(actions);
  latest.current = actions;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const a = latest.current;
      if (!a.active || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      const checkbox = target?.matches('input[type="checkbox"]') === true;
      if (target && !checkbox && (target.closest('input, textarea, select, [contenteditable="true"]') || target.closest('dialog'))) {
        // Esc leaves a field of the queue (a reason list, a note, the bulk bar) for the current item.
        if (e.key === 'Escape' && !target.closest('dialog') && target.closest('[data-review-panel]') && a.items.length > 0) {
          e.preventDefault();
          target.blur();
          a.focusItem();
        }
        return;
      }
      const item = a.items[a.focus];
      const inList = Boolean(target?.closest('[data-testid="review-list"]'));
      // From outside the list, j or k (and Esc) first go to the current item rather than past it.
      const move = (step: number) => (inList ? a.setFocus((i) => Math.max(0, Math.min(a.items.length - 1, i + step))) : a.focusItem());
      const targets = () => (a.selected.size > 0 ? a.items.filter((i) => a.selected.has(i.review_id)) : item ? [item] : []);
      const keys: Record<string, () => void> = {
        j: () => move(1),
        k: () => move(-1),
        c: () => a.decide(targets(), 'confirm'),
        o: () => a.decide(targets(), 'overturn'),
        n: () => item && a.note(item),
        x: () => item && a.toggle(item.review_id, !a.selected.has(item.review_id)),
        u: () => a.undo(),
        m: () => item && a.claim(item),
        '?': () => a.help(),
      };
      if (inList) {
        keys.ArrowDown = keys.j!;
        keys.ArrowUp = keys.k!;
      }
      if (!inList && item) keys.Escape = () => a.focusItem();
      if (/^[1-9]$/.test(e.key)) keys[e.key] = () => item && a.reason(item, Number(e.key));
      const run = keys[e.key];
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
