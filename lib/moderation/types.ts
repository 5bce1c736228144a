/** Shapes shared by the three moderation models, the ensemble and the API contract. */
import { RULES_VERSION, SEVERITIES, SEXISM_VERSION, type SLUR_MENTIONS, TOXICITY_VERSION } from '@/lib/contracts/moderation';
import type { Preprocessed } from './preprocess';

// Wire-format constants live in the contract (lib/contracts sits below lib/moderation).
export { RULES_VERSION, SEVERITIES, SEXISM_VERSION, TOXICITY_VERSION };
export const MODEL_VERSIONS = [SEXISM_VERSION, TOXICITY_VERSION, RULES_VERSION] as const;
export type Severity = (typeof SEVERITIES)[number];
export type SlurMention = (typeof SLUR_MENTIONS)[number];

/** How one call runs the transformer. */
export interface ScoreOptions {
  /**
   * Padded tokens per transformer run (rows × the longest row; one row at least), besides the
   * model's own batch (TOXICITY_MAX_BATCH). Bulk jobs cap it, so an interactive text sharing the
   * worker waits for a short run.
   */
  maxTokensPerRun?: number;
  /**
   * Asked before each transformer run: true once nobody waits for the answer (the client hung up).
   * The call then stops with WorkCancelledError instead of running the rest of its windows.
   */
  cancelled?: () => boolean;
}

/** Thrown by a model call whose `cancelled()` became true: the work was abandoned, not failed. */
export class WorkCancelledError extends Error {
  readonly cancelled = true;
  constructor() {
    super('moderation cancelled: the client closed the request');
    this.name = 'WorkCancelledError';
  }

  /** Also true for the copy of this error a worker thread's message carries (structured cloning keeps no class). */
  static is(err: unknown): boolean {
    return err instanceof Error && (err as { cancelled?: unknown }).cancelled === true;
  }
}

export interface SexismLabel {
  score: number;
  severity: Severity;
  model_version: typeof SEXISM_VERSION;
  threshold_met: boolean;
}

export const TOXICITY_HEADS = ['overall', 'insult', 'threat', 'identity_attack', 'profanity'] as const;
/**
 * The toxicity model's label for first-person self-harm intent and encouragement of self-harm: no API
 * head reads it; the ensemble does, beside the self-harm rules (ensemble.ts `ModelSignals`).
 */
export const SELF_HARM_LABEL = 'self_harm';
export type ToxicityHead = (typeof TOXICITY_HEADS)[number];
export type ToxicityScores = Record<ToxicityHead, number>;

export const RULE_FLAGS = [
  'slur_detected',
  'threat_detected',
  'self_harm_flag',
  'profanity_flag',
  'caps_abuse',
  'character_repetition',
] as const;
export type RuleFlag = (typeof RULE_FLAGS)[number];
export type RulesLabel = Record<RuleFlag, boolean> & {
  model_version: typeof RULES_VERSION;
  /** Only with `slur_detected`: every slur match is a mention, so the ensemble gives the slur rule no risk. */
  slur_mention_only?: true;
};

/** A rule hit, for `explain: true` and the console's highlighting. Offsets index `Preprocessed.visible`. */
export interface RuleMatch {
  flag: RuleFlag;
  /** Lexicon entry or pattern id that matched. */
  term: string;
  start: number;
  end: number;
  /** Only on a `slur_detected` match that talks about the word rather than aiming it at anyone. */
  mention?: SlurMention;
}
export interface RulesResult {
  label: RulesLabel;
  matches: RuleMatch[];
}

/** One n-gram's additive contribution to the sexism logit, for `explain: true`. */
export interface NgramContribution {
  feature: string;
  weight: number;
}

export interface SexismModel {
  readonly version: typeof SEXISM_VERSION;
  /**
   * The toxicity model's label whose logit this model reads as a feature (`ToxicityDetail.auxiliary`),
   * or undefined when it reads none.
   */
  readonly encoderLabel?: string;
  /**
   * Batched scoring: one label per input, same order. `encoder[i]` is the toxicity encoder's logit
   * for `encoderLabel` on text i; without it the model falls back to its n-gram stage alone.
   */
  score(texts: readonly Preprocessed[], encoder?: readonly (number | undefined)[]): SexismLabel[];
  explain(text: Preprocessed, top: number, encoder?: number): NgramContribution[];
}

/** A text's toxicity scores, and the logits of the model's labels that are not API heads. */
export interface ToxicityDetail {
  scores: ToxicityScores;
  /** Label -> logit (a long text's highest window), e.g. `sexism` for sexism_lasso_v1. */
  auxiliary: Readonly<Record<string, number>>;
  /** Tokens the transformer read for this text: every window's, special tokens included (what its work cost). */
  tokens?: number;
  /** Each window's own head scores, in text order (one entry for a text that fits one window). */
  windows?: readonly ToxicityScores[];
  /**
   * Only for a text read in more than one window: per head, the `[start, end)` offsets in
   * `Preprocessed.clean` of the window whose score is the head's score (the first one on a tie).
   */
  peaks?: Partial<Record<ToxicityHead, [number, number]>>;
  /**
   * Only for a long text whose paragraphs were read alone too (the folder's paragraph shift): each
   * paragraph's `[start, end)` in `Preprocessed.clean` and its own head scores, before the shift.
   */
  paragraphs?: readonly { span: [number, number]; scores: ToxicityScores }[];
}

export interface ToxicityModel {
  readonly version: typeof TOXICITY_VERSION;
  /** Batched inference: one score set per input, same order. */
  score(texts: readonly Preprocessed[]): Promise<ToxicityScores[]>;
  /** The same run, with the logits of the labels outside the five heads (absent in fakes). */
  scoreDetailed?(texts: readonly Preprocessed[], options?: ScoreOptions): Promise<ToxicityDetail[]>;
  /** Its tokenizer's tokens of each normalised text, special tokens aside: what reading it costs (bound-work.ts). */
  countTokens?(clean: readonly string[]): number[];
}

export interface RulesEngine {
  readonly version: typeof RULES_VERSION;
  evaluate(text: Preprocessed): RulesResult;
}
