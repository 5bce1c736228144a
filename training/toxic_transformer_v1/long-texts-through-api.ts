/**
 * npm run eval:long-texts [-- --split test]
 *
 * Long texts measured the way the API answers them: through moderate() (the three models, the
 * ensemble and its readings), a flag being `ensemble.summary` ≠ `likely_safe`. `npm run
 * tune:long-texts` measures the toxicity heads alone to choose the window penalty; this reads the same
 * texts (long-text-aggregation.ts buildLongTexts, same seeds) as a user's request would be read:
 * - long benign texts: 8 ordinary comments joined by a blank line; the share flagged, by primary issue;
 * - harm at the end: the share of harmful comments flagged alone that stay flagged after 7 ordinary ones;
 *   the share that stay flagged for a reason other than `self_harm`; and the share that stay flagged with
 *   the self-harm signal left out of the ensemble, by their own reading (none of these comments is
 *   self-harm: a flag only that signal makes keeps them for the wrong reason, and profanity counts only
 *   beside another issue at the line, so the second figure still counts some);
 * - self-harm at the end (validation only): the written validation intent rows
 *   (`selfharm_head_val.jsonl`, from prepare-self-harm-head.ts) after 7 ordinary comments, and alone:
 *   the share flagged with `self_harm` as the primary issue;
 * - long self-harm posts: the split's intent tweets (`selfharm_val.jsonl` / `selfharm_test.jsonl`) of at
 *   least LONG_POST_TOKENS tokens, special tokens included, alone: the share flagged, and the share queued
 *   as `self_harm`. In that corpus long posts are almost all intent, so a change that quiets long benign
 *   texts by reading length as ordinary (decision 220) shows here what it costs.
 * The test split is for the model card; nothing is chosen on it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { moderate } from '@/lib/moderation/moderate';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { SELF_HARM_LABEL } from '@/lib/moderation/types';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { isFlagged } from '@/training/ml/verdicts';
import { readRows } from './evaluate';
import { buildLongTexts, LONG_TEXT_SEEDS } from './long-text-aggregation';
import { rng } from './obfuscate';
import { WORK_DIR } from './prepare';
import { runIfScript } from '@/training/ml/run-as-script';

const COMMENTS_BEFORE = 7;
/** A post this long (prepare.ts's token ids, special tokens included) fills half a window or more. */
const LONG_POST_TOKENS = 64;
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const share = (xs: readonly boolean[]) => r4(xs.filter(Boolean).length / Math.max(1, xs.length));

async function main() {
  const split = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1]! : 'val';
  if (split !== 'val' && split !== 'test') throw new Error('--split is val or test');
  const built = buildLongTexts(readRows(`${split}.jsonl`), LONG_TEXT_SEEDS[split]);
  const models = await new ModelRegistry(defaultModelLoaders()).models();
  const read = (texts: readonly string[]) => moderate(models, texts);
  // The same models with no self-harm threshold: the ensemble reads no self-harm signal (the rules still do).
  const { selfHarmThreshold: _, ...policyWithoutSignal } = models.policy;
  const withoutSelfHarmSignal = { ...models, policy: policyWithoutSignal };

  const benign = await read(built.benign);
  const byIssue: Record<string, number> = {};
  for (const r of benign)
    if (isFlagged(r.ensemble.summary)) byIssue[r.ensemble.primary_issue] = (byIssue[r.ensemble.primary_issue] ?? 0) + 1;
  const alone = (await read(built.harmful)).map((r) => isFlagged(r.ensemble.summary));
  const atEndRead = await read(built.harmAtEnd);
  const atEnd = atEndRead.map((r) => isFlagged(r.ensemble.summary));
  const ownReason = atEndRead.map((r) => isFlagged(r.ensemble.summary) && r.ensemble.primary_issue !== 'self_harm');
  const ownReading = (await moderate(withoutSelfHarmSignal, built.harmAtEnd)).map((r) => isFlagged(r.ensemble.summary));
  const report: Record<string, unknown> = {
    split,
    long_benign_flagged: share(benign.map((r) => isFlagged(r.ensemble.summary))),
    long_benign_flagged_by_primary_issue: byIssue,
    harm_kept_at_end: share(atEnd.filter((_, i) => alone[i])),
    harm_kept_at_end_not_as_self_harm: share(ownReason.filter((_, i) => alone[i])),
    harm_kept_at_end_by_own_reading: share(ownReading.filter((_, i) => alone[i])),
    harm_alone_flagged: share(alone),
  };

  const intentFile = join(WORK_DIR, 'selfharm_head_val.jsonl');
  if (split === 'val' && existsSync(intentFile)) {
    const k = selfHarmIndex();
    const intent = readRows('selfharm_head_val.jsonl')
      .filter((r) => r.y[k] === 1)
      .map((r) => r.t);
    const rand = rng(LONG_TEXT_SEEDS.val + 1);
    const before = built.ordinary;
    const wrapped = intent.map((t) =>
      [...Array.from({ length: COMMENTS_BEFORE }, () => before[Math.floor(rand() * before.length)]!), t].join('\n\n'),
    );
    const caught = (rs: Awaited<ReturnType<typeof read>>) =>
      rs.map((r) => isFlagged(r.ensemble.summary) && r.ensemble.primary_issue === 'self_harm');
    report.self_harm_intent_rows = intent.length;
    report.self_harm_intent_alone_caught = share(caught(await read(intent)));
    report.self_harm_intent_at_end_caught = share(caught(await read(wrapped)));
  }
  const postsFile = `selfharm_${split}.jsonl`;
  if (existsSync(join(WORK_DIR, postsFile))) {
    const k = selfHarmIndex();
    const posts = readRows(postsFile)
      .filter((r) => r.y[k] === 1 && r.ids.length >= LONG_POST_TOKENS)
      .map((r) => r.t);
    const rs = await read(posts);
    report.self_harm_long_posts = posts.length;
    report.self_harm_long_posts_flagged = share(rs.map((r) => isFlagged(r.ensemble.summary)));
    report.self_harm_long_posts_queued_as_self_harm = share(
      rs.map((r) => isFlagged(r.ensemble.summary) && r.ensemble.primary_issue === 'self_harm'),
    );
  }
  console.log(JSON.stringify(report, null, 1));
}

/** The `self_harm` label's index in the prepared rows' label vectors. */
function selfHarmIndex(): number {
  const label = JSON.parse(readFileSync(join(WORK_DIR, 'hf_config.json'), 'utf8')) as { id2label: Record<string, string> };
  return Number(Object.entries(label.id2label).find(([, l]) => l === SELF_HARM_LABEL)?.[0]);
}

runIfScript(import.meta.url, main);
