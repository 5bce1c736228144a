/**
 * Use versus mention, for the toxicity model: when every slur of a text is only mentioned ("Calling
 * someone a "faggot" is never okay.", "He called me a retard on the bus"), the rules give the slur no
 * risk (decision 210), but the transformer still reads the word itself and scores the sentence as an
 * attack. Such a text is read a second time with each mentioned slur replaced by a stand-in word, and
 * each toxicity head keeps the lower of its two scores: the context decides, not the word
 * (docs/decisions/213-mentioned-slurs-read-masked.md). A slur aimed at someone anywhere in the text
 * makes it a use, and the text is read once, as it is.
 *
 * Only texts with `slur_mention_only` pay for the second reading, in one batch.
 */
import { preprocess, type Preprocessed } from './preprocess';
import { scoreDetails } from './score-details';
import { type RulesResult, type ScoreOptions, TOXICITY_HEADS, type ToxicityDetail, type ToxicityModel } from './types';

/** What a mentioned slur reads as: a plain English noun for what was there. */
export const MENTIONED_SLUR_STAND_IN = 'slur';

/**
 * `pre` with every mentioned slur of its rule matches (offsets in `visible`) replaced by the stand-in,
 * normalised again; undefined unless every slur of the text is a mention.
 */
export function maskMentionedSlurs(pre: Preprocessed, rules: RulesResult): Preprocessed | undefined {
  if (!rules.label.slur_mention_only) return undefined;
  const slurs = rules.matches.filter((m) => m.flag === 'slur_detected' && m.mention !== undefined).sort((a, b) => b.start - a.start);
  if (slurs.length === 0) return undefined;
  let visible = pre.visible;
  let end = Number.POSITIVE_INFINITY;
  for (const m of slurs) {
    // The whole word a match lies in ("fag" matches inside "faggots"); one replacement per word.
    const [from, to] = wordAround(visible, m.start, m.end);
    if (to > end) continue;
    visible = visible.slice(0, from) + MENTIONED_SLUR_STAND_IN + visible.slice(to);
    end = from;
  }
  return preprocess(visible);
}

const LETTER = /[\p{L}\p{M}]/u;

function wordAround(text: string, start: number, end: number): [number, number] {
  let a = start;
  while (a > 0 && LETTER.test(text[a - 1]!)) a--;
  let b = end;
  while (b < text.length && LETTER.test(text[b]!)) b++;
  return [a, b];
}

/**
 * `detail` with each mention-only text's head scores lowered to those of its masked reading where
 * lower. Windows, peaks and the auxiliary logits stay the first reading's; `tokens` adds the second's.
 */
export async function readMentionsMasked(
  toxicity: ToxicityModel,
  pre: readonly Preprocessed[],
  rules: readonly RulesResult[],
  detail: readonly ToxicityDetail[],
  options?: ScoreOptions,
): Promise<ToxicityDetail[]> {
  return readAgainKeepingLower(
    toxicity,
    pre.map((p, i) => maskMentionedSlurs(p, rules[i]!)),
    detail,
    options,
  );
}

/**
 * A second reading of some texts (`again[i]`, undefined for a text read once): each head of `detail[i]`
 * keeps the lower of its two scores. Windows, peaks and the auxiliary logits stay the first reading's;
 * `tokens` adds the second's. The second readings run as one batch.
 */
export async function readAgainKeepingLower(
  toxicity: ToxicityModel,
  again: readonly (Preprocessed | undefined)[],
  detail: readonly ToxicityDetail[],
  options?: ScoreOptions,
): Promise<ToxicityDetail[]> {
  const which = again.flatMap((m, i) => (m ? [i] : []));
  if (which.length === 0) return [...detail];
  const inputs = which.map((i) => again[i]!);
  const second = await scoreDetails(toxicity, inputs, options);
  const out = [...detail];
  which.forEach((i, k) => {
    const first = detail[i]!;
    const next = second[k]!;
    const scores = { ...first.scores };
    for (const h of TOXICITY_HEADS) scores[h] = Math.min(first.scores[h], next.scores[h]);
    out[i] = { ...first, scores, ...(first.tokens === undefined ? {} : { tokens: first.tokens + (next.tokens ?? 0) }) };
  });
  return out;
}
