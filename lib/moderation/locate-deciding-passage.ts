/**
 * Where in a text its verdict was decided, so a moderator sees the threat in the last sentence of
 * a long benign text rather than the text's start (docs/decisions/196-explanations-point-at-the-reason.md).
 *
 * - The window: the transformer reads a long text in overlapping windows and each head takes its
 *   highest one (`ToxicityDetail.peaks`); when a toxicity head decided, that window is where (for
 *   a rule hit, the rule's match). Free: it is bookkeeping of the run that scored the text
 *   (`meta.deciding_window`).
 * - The sentence (`explain: true` only): the sentences of that window are scored on their own by
 *   the same model, and the highest for the deciding head is the passage the console highlights.
 *   For a rule hit, the sentence holding the rule's first match. The sexism model reads the whole
 *   text, so its explanation stays its words.
 *
 * Offsets: the window and sentences are found in `Preprocessed.clean` and answered in
 * `Preprocessed.visible`, the text `explanations.rules` spans index.
 */
import type { DecisionExplanation } from './explain-decision';
import type { Preprocessed } from './preprocess';
import { mapCleanToVisible } from './rules/map-to-visible';
import { scoreDetails } from './score-details';
import {
  RULES_VERSION,
  type RuleFlag,
  type RuleMatch,
  type ScoreOptions,
  TOXICITY_VERSION,
  type ToxicityDetail,
  type ToxicityHead,
  type ToxicityModel,
} from './types';

export interface TextSpan {
  start: number;
  end: number;
}

/** Sentences longer than this are cut to the deciding window: a text without punctuation is one "sentence". */
const MAX_SENTENCE_CHARS = 600;

/** Rule flags behind the issues a rule hit can decide. */
const RULE_OF_ISSUE: Partial<Record<string, RuleFlag>> = {
  threat: 'threat_detected',
  slur: 'slur_detected',
  self_harm: 'self_harm_flag',
  profanity: 'profanity_flag',
};

/** The first match of a rule that decided: a slur only mentioned ("the word X") decides nothing. */
function decidingMatch(rules: readonly RuleMatch[], flag: RuleFlag | undefined): RuleMatch | undefined {
  return rules.find((r) => r.flag === flag && !r.mention);
}

/** The toxicity head whose score decided the verdict, if the toxicity model decided it. */
export function decidingHead(decision: DecisionExplanation): ToxicityHead | undefined {
  if (decision.issue === 'none' || decision.model !== TOXICITY_VERSION) return undefined;
  return decision.issue === 'toxicity' ? 'overall' : (decision.issue as ToxicityHead);
}

/**
 * Sentences of a text as `[start, end)` offsets, trimmed of surrounding whitespace: a sentence ends
 * after `.`, `!`, `?` or `…` (and any closing quotes or brackets) followed by whitespace, or at a
 * line break.
 */
export function sentenceSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  const push = (s: number, e: number) => {
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e > s) out.push([s, e]);
  };
  let start = 0;
  for (const m of text.matchAll(/[.!?…]+["'”’)\]]*(?=\s)|\n/g)) {
    const end = m.index + m[0].length;
    push(start, end);
    start = end;
  }
  push(start, text.length);
  return out;
}

/** The sentences of `text` that overlap `[from, to)`, each cut to it when longer than MAX_SENTENCE_CHARS. */
export function sentencesAround(text: string, from: number, to: number): [number, number][] {
  return sentenceSpans(text)
    .filter(([s, e]) => e > from && s < to)
    .map(([s, e]): [number, number] => (e - s > MAX_SENTENCE_CHARS ? [Math.max(s, from), Math.min(e, to)] : [s, e]))
    .filter(([s, e]) => e > s);
}

/**
 * Where a long text's verdict was decided, in `visible` offsets: the window whose score decided
 * (a toxicity head), or the deciding rule's first match (a rule hit). Only for a text the
 * transformer read in more than one window: a shorter one is shown whole anyway.
 */
export function decidingWindow(
  pre: Preprocessed,
  detail: ToxicityDetail,
  decision: DecisionExplanation,
  rules: readonly RuleMatch[] = [],
): TextSpan | undefined {
  if (!detail.peaks || decision.issue === 'none') return undefined;
  if (decision.model === RULES_VERSION) {
    const hit = decidingMatch(rules, RULE_OF_ISSUE[decision.issue]);
    return hit && hit.end > hit.start ? { start: hit.start, end: hit.end } : undefined;
  }
  const head = decidingHead(decision);
  const peak = head && detail.peaks[head];
  if (!peak) return undefined;
  const [start, end] = mapCleanToVisible(pre)(peak[0], peak[1]);
  return end > start ? { start, end } : undefined;
}

export interface PassageInput {
  pre: Preprocessed;
  detail: ToxicityDetail;
  decision: DecisionExplanation;
  rules: readonly RuleMatch[];
}

/**
 * The deciding sentence of each text (undefined where none applies, or where the text is one
 * sentence: the passage would be the whole text). The candidate sentences of every text are scored
 * in one call; `onTokens` is told what that read.
 */
export async function locateDecidingPassages(
  toxicity: ToxicityModel,
  inputs: readonly PassageInput[],
  options: ScoreOptions & { onTokens?: (tokens: number) => void } = {},
): Promise<(TextSpan | undefined)[]> {
  const found: (TextSpan | undefined)[] = inputs.map(() => undefined);
  const candidates: { text: number; span: [number, number] }[] = [];
  const heads: (ToxicityHead | undefined)[] = [];
  inputs.forEach(({ pre, detail, decision, rules }, i) => {
    const head = decidingHead(decision);
    heads.push(head);
    if (decision.issue !== 'none' && decision.model === RULES_VERSION) {
      const hit = decidingMatch(rules, RULE_OF_ISSUE[decision.issue]);
      if (!hit) return;
      const all = sentenceSpans(pre.visible);
      const own = all.find(([s, e]) => s <= hit.start && hit.start < e);
      if (own && all.length > 1) found[i] = { start: Math.min(own[0], hit.start), end: Math.max(own[1], hit.end) };
      return;
    }
    if (!head) return;
    const [from, to] = detail.peaks?.[head] ?? [0, pre.clean.length];
    if (sentenceSpans(pre.clean).length < 2) return;
    for (const span of sentencesAround(pre.clean, from, to)) candidates.push({ text: i, span });
  });
  if (candidates.length === 0) return found;
  const pieces = candidates.map(({ text, span }): Preprocessed => {
    const clean = inputs[text]!.pre.clean.slice(span[0], span[1]);
    return { original: clean, visible: clean, clean };
  });
  const scored = await scoreDetails(toxicity, pieces, options);
  options.onTokens?.(scored.reduce((n, d) => n + (d.tokens ?? 0), 0));
  const best = new Map<number, { score: number; span: [number, number] }>();
  candidates.forEach(({ text, span }, k) => {
    const score = scored[k]!.scores[heads[text]!];
    const prev = best.get(text);
    if (!prev || score > prev.score) best.set(text, { score, span });
  });
  for (const [i, { span }] of best) {
    const [start, end] = mapCleanToVisible(inputs[i]!.pre)(span[0], span[1]);
    if (end > start) found[i] = { start, end };
  }
  return found;
}
