/**
 * Policy versions in the database (migration 0010, docs/decisions/172): the thresholds in force,
 * every change as an appended row (who, when, old, new, why), reverts as new rows, and the decided
 * review items the policy view measures and exports.
 *
 * Writers take a transaction-scoped advisory lock and check the version the change was decided
 * on, so two admins (or two instances) never both write version n+1, and a change decided on a
 * stale view is refused (POLICY_CONFLICT) instead of silently undoing the other.
 */
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { PolicyCategory, PolicyVersion, ThresholdOverrides } from '@/lib/contracts/policy';
import { POLICY_CATEGORIES } from '@/lib/contracts/policy';
import type { Database } from '@/lib/db/open-database';
import { policyVersions, reviewItems, type PolicyVersionRow } from '@/lib/db/schema';
import { DomainError } from '@/lib/errors/domain-error';
import { decidedSample, type DecidedSample } from './decided-sample';
import type { DecidedItem } from './decisions-csv';

const POLICY_LOCK = 0x70_6f_6c_69; // 'poli'

export class PolicyError extends DomainError<'POLICY_CONFLICT' | 'NOT_FOUND' | 'VALIDATION_ERROR'> {}

export interface PolicyState {
  /** 0: no change recorded (the shipped thresholds). */
  version: number;
  thresholds: ThresholdOverrides;
}

export interface ThresholdChangeInput {
  category: PolicyCategory;
  /** null: back to the shipped threshold. */
  threshold: number | null;
  reason: string;
  changedBy: string;
  expectedVersion: number;
}

export interface PolicyStore {
  current(): Promise<PolicyState>;
  /** Newest first. */
  versions(limit: number): Promise<PolicyVersion[]>;
  change(input: ThresholdChangeInput, now?: Date): Promise<PolicyVersion>;
  /** A new version putting `version`'s category back to its threshold before `version`. */
  revert(version: number, by: Omit<ThresholdChangeInput, 'category' | 'threshold'>, now?: Date): Promise<PolicyVersion>;
  /** Every confirmed or overturned review item whose verdict has scores. */
  decidedSamples(): Promise<DecidedSample[]>;
  /** Decided items whose text is still stored, oldest decision first, in chunks (the CSV export). */
  decidedItems(chunk?: number): AsyncGenerator<DecidedItem[]>;
}

const clean = (o: Record<string, number>): ThresholdOverrides =>
  Object.fromEntries(Object.entries(o).filter(([k, v]) => (POLICY_CATEGORIES as readonly string[]).includes(k) && typeof v === 'number'));

/** Thresholds are stored as `real`: 0.6 comes back as 0.6000000238; 4 decimals is what was set. */
const r4 = (x: number | null) => (x === null ? null : Math.round(x * 1e4) / 1e4);

export function toPolicyVersion(r: PolicyVersionRow): PolicyVersion {
  return {
    version: r.version,
    category: r.category as PolicyCategory,
    old_threshold: r4(r.oldThreshold),
    new_threshold: r4(r.newThreshold),
    thresholds: clean(r.thresholds),
    changed_by: r.changedBy,
    reason: r.reason,
    reverts: r.reverts,
    created_at: r.createdAt.toISOString(),
  };
}

export function createPolicyStore(database: Database): PolicyStore {
  const { db } = database;

  async function write(input: ThresholdChangeInput & { reverts?: number }, now: Date): Promise<PolicyVersion> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${POLICY_LOCK})`);
      const [latest] = await tx.select().from(policyVersions).orderBy(desc(policyVersions.version)).limit(1);
      const version = latest?.version ?? 0;
      if (version !== input.expectedVersion) {
        throw new PolicyError(
          'POLICY_CONFLICT',
          `The policy is at version ${version}, not ${input.expectedVersion}: it changed since; look again before changing it.`,
        );
      }
      const before = latest ? clean(latest.thresholds) : {};
      const old = before[input.category] ?? null;
      const rounded = r4(input.threshold);
      if (old === rounded) {
        throw new PolicyError('VALIDATION_ERROR', `Field 'threshold': ${input.category} already has this threshold in force.`);
      }
      const after: ThresholdOverrides = { ...before };
      if (rounded === null) delete after[input.category];
      else after[input.category] = rounded;
      const [row] = await tx
        .insert(policyVersions)
        .values({
          version: version + 1,
          category: input.category,
          oldThreshold: old,
          newThreshold: rounded,
          thresholds: after as Record<string, number>,
          changedBy: input.changedBy,
          reason: input.reason,
          reverts: input.reverts ?? null,
          createdAt: now,
        })
        .returning();
      return toPolicyVersion(row!);
    });
  }

  return {
    async current() {
      const [latest] = await db
        .select({ version: policyVersions.version, thresholds: policyVersions.thresholds })
        .from(policyVersions)
        .orderBy(desc(policyVersions.version))
        .limit(1);
      return latest ? { version: latest.version, thresholds: clean(latest.thresholds) } : { version: 0, thresholds: {} };
    },

    async versions(limit) {
      const rows = await db.select().from(policyVersions).orderBy(desc(policyVersions.version)).limit(limit);
      return rows.map(toPolicyVersion);
    },

    change: (input, now = new Date()) => write(input, now),

    async revert(version, by, now = new Date()) {
      const [target] = await db.select().from(policyVersions).where(eq(policyVersions.version, version)).limit(1);
      if (!target) throw new PolicyError('NOT_FOUND', `No policy version ${version}.`);
      return write({ ...by, category: target.category as PolicyCategory, threshold: r4(target.oldThreshold), reverts: version }, now);
    },

    async decidedSamples() {
      const rows = await db
        .select({ id: reviewItems.id, text: reviewItems.text, status: reviewItems.status, verdict: reviewItems.verdict })
        .from(reviewItems)
        .where(inArray(reviewItems.status, ['confirmed', 'overturned']));
      return rows.flatMap(
        (r) => decidedSample(r.status === 'confirmed' ? 'confirm' : 'overturn', r.verdict, { id: r.id, text: r.text }) ?? [],
      );
    },

    async *decidedItems(chunk = 1000) {
      let after: { at: Date; id: string } | undefined;
      for (;;) {
        const rows = await db
          .select({
            id: reviewItems.id,
            text: reviewItems.text,
            status: reviewItems.status,
            primaryIssue: reviewItems.primaryIssue,
            decidedAt: reviewItems.decidedAt,
            // The reason code of the decision in force: the latest decided row of the item.
            reasonCode: sql<string>`COALESCE((SELECT d.reason_code FROM review_decisions d WHERE d.review_id = review_items.id AND d.action IN ('decided', 'bulk_decided') ORDER BY d.created_at DESC, d.id DESC LIMIT 1), '')`,
          })
          .from(reviewItems)
          .where(
            and(
              inArray(reviewItems.status, ['confirmed', 'overturned']),
              isNotNull(reviewItems.text),
              isNotNull(reviewItems.decidedAt),
              after
                ? sql`(${reviewItems.decidedAt}, ${reviewItems.id}) > (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
                : undefined,
            ),
          )
          .orderBy(reviewItems.decidedAt, reviewItems.id)
          .limit(chunk);
        if (rows.length === 0) return;
        yield rows.map((r) => ({
          review_id: r.id,
          text: r.text!,
          decision: r.status === 'confirmed' ? ('confirm' as const) : ('overturn' as const),
          primary_issue: r.primaryIssue,
          reason_code: r.reasonCode,
          decided_at: r.decidedAt!.toISOString(),
        }));
        if (rows.length < chunk) return;
        const last = rows.at(-1)!;
        after = { at: last.decidedAt!, id: last.id };
      }
    },
  };
}
