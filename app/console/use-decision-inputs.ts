'use client';
/**
 * The reason code and note per review item (and one pair for the bulk bar), with why the last
 * decision was refused. Kept in a ref as the last event left them, mirrored into state for
 * rendering: a decision reads the ref, so a click right after choosing a reason never sees the
 * state from before the choice. Cleared for the items whose decision was taken.
 */
import { useRef, useState } from 'react';

export interface DecisionInputs {
  reason: string;
  note: string;
}
const NONE: DecisionInputs = { reason: '', note: '' };

export function useDecisionInputs() {
  const [, rerender] = useState<Record<string, DecisionInputs>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const ref = useRef<Record<string, DecisionInputs>>({});
  const update = (next: Record<string, DecisionInputs>) => {
    ref.current = next;
    rerender(next);
  };
  return {
    get: (id: string): DecisionInputs => ref.current[id] ?? NONE,
    set: (id: string, patch: Partial<DecisionInputs>) => {
      update({ ...ref.current, [id]: { ...(ref.current[id] ?? NONE), ...patch } });
      setProblems(({ [id]: _, ...rest }) => rest);
    },
    /** Forgets the inputs of `ids` (their decision was taken). */
    clear: (ids: Iterable<string>) => {
      const gone = new Set(ids);
      update(Object.fromEntries(Object.entries(ref.current).filter(([id]) => !gone.has(id))));
    },
    problems,
    refuse: (id: string, problem: string) => setProblems((p) => ({ ...p, [id]: problem })),
  };
}
