/**
 * Counterfactual reading of the group a text names. The toxicity model learned some group words as
 * signs of abuse ("Ling is a kind gay." reads as toxic): whether a sentence is abusive at all then
 * depends on which group it names, not on what it says. A text that names a group and reaches the
 * threshold of `overall`, `insult`, `threat` or `profanity` is read again with each group word swapped
 * for the same form of each reference group ("Ling is a kind Christian."), and each of those heads keeps
 * the lower of its first score and a blend with the references' mean, in logits:
 *
 *   score = min(p, σ(w · logit(p) + (1 − w) · mean_r logit(p_r)))
 *
 * Abuse reads as abuse whatever group it names ("X are vermin"), so it keeps its score. `identity_attack`
 * keeps its first reading: an attack on a group is specific to that group (a stereotype is about one
 * group), and lowering it towards other groups loses such hate (docs/decisions/219-group-blind-heads-read-with-other-groups.md).
 *
 * Only texts of one window (126 pieces) that name a group and reach one of those thresholds pay for the
 * extra readings, in one batch; longer texts are read once.
 */
import lexicon from './lexicons/group-words.json';
import { preprocess, type Preprocessed } from './preprocess';
import { scoreDetails } from './score-details';
import type { ScoreOptions, ToxicityDetail, ToxicityModel, ToxicityScores } from './types';

/** The groups a named group is swapped for: one word serves as adjective and singular noun, plus a plural. */
export const REFERENCE_GROUPS: readonly { readonly singular: string; readonly plural: string }[] = [
  { singular: 'Christian', plural: 'Christians' },
  { singular: 'Buddhist', plural: 'Buddhists' },
  { singular: 'European', plural: 'Europeans' },
];

/** Weight of the first reading in the blend, chosen on validation (select-group-reading.ts; decision 219 has the figures). */
export const FIRST_READING_WEIGHT = 0.25;

/**
 * Group words that are not swapped: everyday words for men and women (the sexism model reads those),
 * names of faiths and conditions rather than of people, and words that are mostly something else
 * ("straight", "blind", "polish", "native").
 */
const NOT_SWAPPED = new Set([
  'boy',
  'boys',
  'girl',
  'girls',
  'lady',
  'ladies',
  'man',
  'men',
  'woman',
  'women',
  'male',
  'males',
  'female',
  'females',
  'feminist',
  'feminists',
  'christianity',
  'hinduism',
  'islam',
  'judaism',
  'homosexuality',
  'autism',
  'disability',
  'disabilities',
  'straight',
  'blind',
  'deaf',
  'wheelchair',
  'foreign',
  'pole',
  'poles',
  'polish',
  'native',
  'natives',
  'afro',
  'arabic',
  'indigenous',
]);

const ALL_GROUP_WORDS: readonly string[] = Object.values(lexicon.categories as Record<string, string[]>).flat();

/** Plural group words: a listed word that is another listed word plus "s"/"es", or an irregular plural. */
function pluralForms(words: readonly string[]): Set<string> {
  const set = new Set(words);
  const plural = new Set<string>();
  for (const w of words) {
    if ((w.endsWith('s') && set.has(w.slice(0, -1))) || (w.endsWith('es') && set.has(w.slice(0, -2)))) plural.add(w);
    if (w.endsWith('ies') && set.has(`${w.slice(0, -3)}y`)) plural.add(w);
  }
  return plural;
}

const SWAPPED = ALL_GROUP_WORDS.filter((w) => !NOT_SWAPPED.has(w));
const PLURAL = pluralForms(ALL_GROUP_WORDS);
const GROUP_WORD = new RegExp(
  `(?<![\\p{L}\\p{N}])(${[...SWAPPED].sort((a, b) => b.length - a.length).join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
);

/** `text` with each group word replaced by the reference group's word of the same form; undefined when it names none. */
export function swapGroupWords(text: string, reference: (typeof REFERENCE_GROUPS)[number]): string | undefined {
  let changed = false;
  const out = text.replace(GROUP_WORD, (m) => {
    changed = true;
    return PLURAL.has(m.toLowerCase()) ? reference.plural : reference.singular;
  });
  return changed ? out : undefined;
}

/**
 * The heads whose answer should not depend on which group a text names. `identity_attack` keeps its
 * first reading: an attack on a group is specific to it (a stereotype is about one group).
 */
const GROUP_BLIND_HEADS = ['overall', 'insult', 'threat', 'profanity'] as const;

const logit = (p: number) => {
  const q = Math.min(Math.max(p, 1e-7), 1 - 1e-7);
  return Math.log(q / (1 - q));
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** `first` with each group-blind head lowered to its blend with the references' mean logit, where lower. */
export function blendWithReferences(first: ToxicityScores, references: readonly ToxicityScores[], weight: number): ToxicityScores {
  const out = { ...first };
  if (weight >= 1 || references.length === 0) return out;
  for (const h of GROUP_BLIND_HEADS) {
    const mean = references.reduce((sum, r) => sum + logit(r[h]), 0) / references.length;
    out[h] = Math.min(first[h], sigmoid(weight * logit(first[h]) + (1 - weight) * mean));
  }
  return out;
}

/**
 * `detail` with each one-window text that names a group and reaches a group-blind head's threshold
 * (`thresholds`, the policy in force) blended with its readings for the reference groups. Windows, peaks and the
 * auxiliary logits stay the first reading's; `tokens` adds the extra readings'.
 */
export async function readGroupsSwapped(
  toxicity: ToxicityModel,
  pre: readonly Preprocessed[],
  detail: readonly ToxicityDetail[],
  thresholds: ToxicityScores,
  options: ScoreOptions & { weight?: number } = {},
): Promise<ToxicityDetail[]> {
  const weight = options.weight ?? FIRST_READING_WEIGHT;
  if (weight >= 1) return [...detail];
  // One window at most: reading a long text three more times would cost several times its first
  // reading, and the sentences this reading is for are short.
  const which = detail.flatMap((d, i) =>
    (d.windows?.length ?? 1) <= 1 &&
    GROUP_BLIND_HEADS.some((h) => d.scores[h] >= thresholds[h]) &&
    swapGroupWords(pre[i]!.visible, REFERENCE_GROUPS[0]!)
      ? [i]
      : [],
  );
  if (which.length === 0) return [...detail];
  const inputs = which.flatMap((i) => REFERENCE_GROUPS.map((r) => preprocess(swapGroupWords(pre[i]!.visible, r)!)));
  const { weight: _, ...scoreOptions } = options;
  const again = await scoreDetails(toxicity, inputs, scoreOptions);
  const out = [...detail];
  const n = REFERENCE_GROUPS.length;
  which.forEach((i, k) => {
    const first = detail[i]!;
    const refs = again.slice(k * n, (k + 1) * n);
    const tokens = refs.reduce((s, r) => s + (r.tokens ?? 0), first.tokens ?? 0);
    out[i] = {
      ...first,
      scores: blendWithReferences(
        first.scores,
        refs.map((r) => r.scores),
        weight,
      ),
      ...(first.tokens === undefined ? {} : { tokens }),
    };
  });
  return out;
}
