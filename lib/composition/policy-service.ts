/**
 * The policy store on the process's database, and the thresholds in force as every moderation
 * reads them (docs/decisions/172-policy-from-decisions.md): read again at most every
 * POLICY_REFRESH_SECONDS, so a change made on any instance is applied by every instance within that
 * time; the instance that made the change applies it at once.
 */
import 'server-only';
import type { ThresholdOverrides } from '@/lib/contracts/policy';
import { env } from '@/lib/env';
import { logger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { createPolicyStore, type PolicyState, type PolicyStore } from '@/lib/policy/policy-store';
import { createThresholdCache, type ThresholdCache } from '@/lib/policy/threshold-cache';
import { cachedPromise, type CachedPromise } from '@/lib/process/cached-promise';
import { dropSingleton, singleton } from '@/lib/process/singleton';
import { database } from './database';

const NAME = 'policy-service';
/** How long a moderation waits for a slow policy read before it goes on with the policy it had. */
const READ_WAIT_MS = 1000;

interface PolicyService {
  store: CachedPromise<PolicyStore>;
  cache: ThresholdCache;
}

function service(): PolicyService {
  return singleton<PolicyService>(NAME, () => {
    const store = cachedPromise(async () => createPolicyStore(await database()));
    const cache = createThresholdCache({
      read: async () => (await store.get()).current(),
      maxAgeMs: env().POLICY_REFRESH_SECONDS * 1000,
      waitMs: READ_WAIT_MS,
      // At most once per POLICY_REFRESH_SECONDS: a failed read counts as a read.
      onError(err) {
        logger().warn({ err: errorForLog(err) }, 'policy thresholds could not be read: moderation keeps the last ones read');
      },
    });
    return { store, cache };
  });
}

/** Rejects with DatabaseUnavailableError (answered 503 DATABASE_UNAVAILABLE) while the database is unavailable. */
export function policyStore(): Promise<PolicyStore> {
  return service().store.get();
}

/** The policy version in force, as moderation applies it. */
export function currentPolicy(): Promise<PolicyState> {
  return service().cache.get();
}

export async function currentThresholds(): Promise<ThresholdOverrides> {
  return (await currentPolicy()).thresholds;
}

/** After a change made on this instance: applied here at once. */
export function policyChanged(state: PolicyState): void {
  service().cache.set(state);
}

/** Tests and shutdown. */
export function disposePolicyService(): void {
  dropSingleton(NAME);
}
