/**
 * moderate(): texts in, spec-shaped verdicts out, in input order. All texts of a request go
 * through each model as one batch (the transformer pads per batch), so a 100-text batch costs
 * far less than 100 single calls.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { boundAndPreprocess, type WorkLimits } from './bound-work';
import type { ThresholdOverrides } from '@/lib/contracts/policy';
import { combine, type ModelSignals, withOverrides } from './ensemble';
import { detectLanguage } from './detect-language';
import { explainDecision } from './explain-decision';
import { decidingWindow, locateDecidingPassages } from './locate-deciding-passage';
import type { LoadedModels } from './model-registry';
import type { Preprocessed } from './preprocess';
import { readGroupsSwapped } from './read-groups-swapped';
import { scoreDetails } from './score-details';
import { readMentionsMasked } from './read-mentions-masked';
import { figurativeSelfHarmOnly, readFigurativeIdiomsRemoved } from './self-harm-figurative';
import { MODEL_VERSIONS, SELF_HARM_LABEL, TOXICITY_VERSION, type ToxicityDetail } from './types';

export interface ModerateOptions {
  explain?: boolean;
  /** How many sexism n-grams `explain` lists. */
  explainTop?: number;
  /**
   * Called once per model with the milliseconds this call spent in it (the server feeds its
   * metrics from this; moderate() itself stays free of server imports, as the browser runs it too).
   * The transformer runs off the main thread, so its time is from the call until its scores arrive.
   */
  onModelTime?: (model: 'sexism' | 'toxicity' | 'rules', ms: number) => void;
  /**
   * Caps on the normalised text the models read (bound-work.ts). The server always passes them;
   * a text cut short answers `meta.truncated`. Without them every text is read whole.
   */
  limits?: WorkLimits;
  /**
   * Each text's share of its batch's budget, when `texts` is one chunk of a larger batch
   * (bound-work.ts batchShares()); only read with `limits`.
   */
  batchShares?: readonly number[];
  /** Padded tokens per transformer run (bulk jobs: a shorter wait for the next interactive text). */
  maxTokensPerRun?: number;
  /** True once nobody waits for the answer: the transformer stops before its next run (WorkCancelledError). */
  cancelled?: () => boolean;
  /** Called once with the tokens the transformer read for these texts (ToxicityDetail.tokens), what the work cost. */
  onTokens?: (tokens: number) => void;
  /**
   * The policy version's thresholds (docs/decisions/172), applied over the models' shipped ones;
   * absent or empty: the shipped thresholds.
   */
  thresholds?: ThresholdOverrides;
  /**
   * Weight of a group-naming text's first reading against its readings with other groups
   * (read-groups-swapped.ts); absent: the shipped weight. Only the validation selection sets it.
   */
  groupReadingWeight?: number;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * The toxicity model's `self_harm` label (a logit in `auxiliary`), as a probability, when it has one
 * and the text's words of death are not all figurative (self-harm-figurative.ts).
 */
function modelSignals(detail: ToxicityDetail, pre: Preprocessed): ModelSignals {
  const logit = detail.auxiliary[SELF_HARM_LABEL];
  return logit === undefined || figurativeSelfHarmOnly(pre.clean) ? {} : { selfHarm: 1 / (1 + Math.exp(-logit)) };
}

export async function moderate(
  models: LoadedModels,
  texts: readonly string[],
  options: ModerateOptions = {},
): Promise<ModerationResponse[]> {
  const started = performance.now();
  const { bounded, pre } = boundAndPreprocess(texts, options.limits, options.batchShares, models.toxicity.countTokens);
  const timed = options.onModelTime;
  const toxicityStarted = performance.now();
  const toxicityPromise = scoreDetails(models.toxicity, pre, { maxTokensPerRun: options.maxTokensPerRun, cancelled: options.cancelled });
  const rulesStarted = performance.now();
  const rules = pre.map((p) => models.rules.evaluate(p));
  const rulesEnded = performance.now();
  // A text whose slurs are all only mentioned is read again with them masked (read-mentions-masked.ts).
  const scoreOptions = { maxTokensPerRun: options.maxTokensPerRun, cancelled: options.cancelled };
  const masked = await readMentionsMasked(models.toxicity, pre, rules, await toxicityPromise, scoreOptions);
  // A text whose words of death are all figurative is read again without its idioms (self-harm-figurative.ts).
  const figurative = await readFigurativeIdiomsRemoved(models.toxicity, pre, masked, scoreOptions);
  // A text flagged for naming a group is read again with other groups (read-groups-swapped.ts).
  const policy = withOverrides(models.policy, options.thresholds);
  const detail = await readGroupsSwapped(models.toxicity, pre, figurative, policy.toxicityThresholds, {
    ...scoreOptions,
    ...(options.groupReadingWeight === undefined ? {} : { weight: options.groupReadingWeight }),
  });
  const toxicityEnded = performance.now();
  // sexism_lasso_v1 reads the encoder's sexism logit as a feature, so it runs after the transformer.
  const encoderLabel = models.sexism.encoderLabel;
  const encoder = encoderLabel === undefined ? undefined : detail.map((d) => d.auxiliary[encoderLabel]);
  const sexismStarted = performance.now();
  const sexism = models.sexism.score(pre, encoder);
  const sexismEnded = performance.now();
  const toxicity = detail.map((d) => d.scores);
  const signals = detail.map((d, i) => modelSignals(d, pre[i]!));
  const ensembles = texts.map((_, i) => combine(sexism[i]!, toxicity[i]!, rules[i]!.label, policy, signals[i]));
  const decisions = texts.map((_, i) => explainDecision(sexism[i]!, toxicity[i]!, rules[i]!.label, policy, ensembles[i]!, signals[i]));
  let tokens = detail.reduce((sum, d) => sum + (d.tokens ?? 0), 0);
  // Only explanations pay for the deciding sentence: its window's sentences are scored once more.
  const passages = options.explain
    ? await locateDecidingPassages(
        models.toxicity,
        pre.map((p, i) => ({ pre: p, detail: detail[i]!, decision: decisions[i]!, rules: rules[i]!.matches })),
        { maxTokensPerRun: options.maxTokensPerRun, cancelled: options.cancelled, onTokens: (n) => (tokens += n) },
      )
    : [];
  options.onTokens?.(tokens);
  if (timed) {
    timed('toxicity', toxicityEnded - toxicityStarted);
    timed('sexism', sexismEnded - sexismStarted);
    timed('rules', rulesEnded - rulesStarted);
  }
  // A batch's shared work is split evenly between its texts: meta.processing_time_ms is each
  // text's share, and the batch total is reported separately by the batch endpoint.
  const perText = Math.round((performance.now() - started) / Math.max(1, texts.length));
  // A moved sexism threshold moves the label's `threshold_met` with the verdict; its severity bands stay the model's.
  const sexismMoved = policy.sexismThreshold !== models.policy.sexismThreshold;

  return texts.map((text, i) => {
    const s = sexism[i]!;
    const t = toxicity[i]!;
    const r = rules[i]!;
    const response: ModerationResponse = {
      text,
      label: {
        sexism: { ...s, score: round4(s.score), ...(sexismMoved ? { threshold_met: s.score >= policy.sexismThreshold } : {}) },
        toxicity: {
          overall: round4(t.overall),
          insult: round4(t.insult),
          threat: round4(t.threat),
          identity_attack: round4(t.identity_attack),
          profanity: round4(t.profanity),
          model_version: TOXICITY_VERSION,
        },
        rules: r.label,
      },
      ensemble: ensembles[i]!,
      meta: { processing_time_ms: perText, models_used: [...MODEL_VERSIONS] },
    };
    const truncated = bounded[i]!.truncated;
    if (truncated) response.meta.truncated = truncated;
    const window = decidingWindow(pre[i]!, detail[i]!, decisions[i]!, r.matches);
    if (window) response.meta.deciding_window = window;
    if (options.explain) {
      response.explanations = {
        rules: r.matches.map((m) => ({
          flag: m.flag,
          term: m.term,
          start: m.start,
          end: m.end,
          ...(m.mention ? { mention: m.mention } : {}),
        })),
        sexism: models.sexism.explain(pre[i]!, options.explainTop ?? 10, encoder?.[i]),
        decision: passages[i] ? { ...decisions[i]!, span: passages[i] } : decisions[i]!,
        language: detectLanguage(text),
      };
    }
    return response;
  });
}
