'use client';
/** React's view of PolicyController (lib/browser/policy-controller.ts): loads when the tab opens, asks what a draft would change after a pause in typing. */
import { useEffect, useRef, useState } from 'react';
import { PolicyController, type PolicyState } from '@/lib/browser/policy-controller';
import { api } from '@/lib/browser/vigil-api';
import { DEFAULT_MODERATOR } from '@/lib/contracts/reviews';

const IMPACT_DEBOUNCE_MS = 250;
/** The name the Review queue's Moderator field remembers; with API keys the server records the key instead. */
const moderatorName = () => window.localStorage.getItem('vigil.moderator')?.trim() || DEFAULT_MODERATOR;

export function usePolicy(active: boolean) {
  const [state, setState] = useState<PolicyState>({ versions: [], loading: false, saving: false });
  const controller = useRef<PolicyController | null>(null);
  controller.current ??= new PolicyController(
    {
      policy: api.policy,
      versions: api.policyVersions,
      impact: api.policyImpact,
      change: api.changeThreshold,
      revert: api.revertPolicy,
    },
    setState,
  );
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => controller.current?.dispose(), []);
  useEffect(() => {
    if (active) void controller.current?.load();
  }, [active]);

  const c = controller.current;
  return {
    state,
    canSave: c.canSave,
    reload: () => void c.load(),
    select: c.select.bind(c),
    propose(threshold: number) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void c.propose(threshold), IMPACT_DEBOUNCE_MS);
    },
    save: (reason: string, toShipped = false) => c.save(reason, moderatorName(), toShipped),
    revert: (version: number, reason: string) => c.revert(version, reason, moderatorName()),
  };
}
