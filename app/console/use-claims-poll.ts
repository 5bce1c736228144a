'use client';
/**
 * Other moderators' claims appear without a reload (docs/decisions/205): while the queue is shown and
 * the browser tab is visible, the claims that hold are read every CLAIMS_POLL_MS and laid over the
 * list (lib/browser/review-claims.ts); a hidden tab does not ask, and asks at once when shown again.
 */
import { useEffect, type Dispatch, type SetStateAction } from 'react';
import type { ReviewItem } from '@/lib/contracts/reviews';
import { CLAIMS_POLL_MS, withClaims } from '@/lib/browser/review-claims';
import { api } from '@/lib/browser/vigil-api';

export function useClaimsPoll(active: boolean, setItems: Dispatch<SetStateAction<ReviewItem[]>>): void {
  useEffect(() => {
    if (!active) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const tick = async () => {
      clearTimeout(timer);
      if (document.visibilityState === 'visible') {
        try {
          const { claims } = await api.reviewClaims(controller.signal);
          if (live) setItems((xs) => withClaims(xs, claims));
        } catch {
          // The list's own loads report an unreachable server; the next tick tries again.
        }
      }
      if (live) timer = setTimeout(() => void tick(), CLAIMS_POLL_MS);
    };
    timer = setTimeout(() => void tick(), CLAIMS_POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      clearTimeout(timer);
      controller.abort();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [active, setItems]);
}
