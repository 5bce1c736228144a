/**
 * Figurative wording of death and harm ("this workout is killing me", "I could die of embarrassment",
 * "I'd kill for a coffee"): a text whose only words of death or self-harm sit inside such an idiom is
 * not read as self-harm by the toxicity model's `self_harm` signal (docs/decisions/216), and the
 * toxicity heads read it a second time without those idioms, each keeping the lower score
 * (`withoutFigurativeIdioms`, docs/decisions/218): the rest of the text decides. The rules' own
 * self-harm phrases are not affected, and a single word of harm outside the idiom ("this week is
 * killing me, taking all my pills tonight") keeps the signal and the first reading.
 *
 * Reads `Preprocessed.clean`, after homoglyph, leetspeak and algospeak folding, so a disguised harm
 * word still counts.
 */
import { preprocess, type Preprocessed } from './preprocess';
import { readAgainKeepingLower } from './read-mentions-masked';
import type { ScoreOptions, ToxicityDetail, ToxicityModel } from './types';

/**
 * Idioms that can also be said of a victim ("I'll find your dog and kill it", "I could murder a …"):
 * they gate the self-harm signal but are not removed for the toxicity heads' second reading.
 */
const KILL_IT = /\bkill(?:ing|ed|s)?\s+it\b/g; // "you killed it"
const COULD_MURDER_A = /\bcould\s+murder\s+(?:a|an|some)\b/g; // "I could murder a pizza"
const SAID_OF_A_VICTIM: ReadonlySet<RegExp> = new Set([KILL_IT, COULD_MURDER_A]);

/** Idioms that use a word of death or killing for something else. Matched on the lower-cased text. */
const IDIOMS: readonly RegExp[] = [
  // "die of embarrassment", "nearly died laughing", "dying of boredom"
  /\b(?:die|dies|died|dying|dead)\s+(?:of|from|with)\s+(?:pure\s+|sheer\s+|secondhand\s+|second-hand\s+)?(?:embarrassment|shame|laughter|laughing|boredom|cringe|awkwardness|happiness|joy|excitement|curiosity|envy|jealousy|mortification|cuteness|heat|thirst|hunger)\b/g,
  /\b(?:die|died|dying)\s+laughing\b/g,
  // "dying to see it", "I'm dying for a coffee", "to die for"
  /\bdying\s+(?:to|for)\b/g,
  /\bto\s+die\s+for\b/g,
  /\b(?:would|could|'d)\s+(?:literally\s+)?(?:kill|murder|die)\s+for\b/g,
  COULD_MURDER_A,
  // "this workout is killing me", "my feet are killing me", "leg day has been killing me"
  /\b(?:is|are|was|were|'s|'re|has\s+been|have\s+been|keeps|kept)\s+(?:absolutely\s+|literally\s+|slowly\s+)?(?:killing|murdering)\s+(?:me|my)\b/g,
  // "bored to death", "scared to death"
  /\b(?:bored|scared|frightened|worried|tickled|stressed|loved|starving|freezing)\s+to\s+death\b/g,
  /\b(?:will|gonna|going\s+to)\s+be\s+the\s+(?:death|end)\s+of\s+me\b/g,
  /\bdead\s+(?:tired|serious|beat|on\s+my\s+feet)\b/g,
  /\bdrop[-\s]dead\s+gorgeous\b/g,
  // "killing time", "kill the lights"
  /\bkill(?:ing|ed|s)?\s+(?:time|the\s+lights|the\s+engine|the\s+music)\b/g,
  KILL_IT,
  // things that die: "my phone died", "the battery is dying"
  /\b(?:phone|battery|laptop|car|plants?|torch|charger|headphones)\s+(?:is\s+|was\s+|just\s+|has\s+)?(?:died|dying|dead|about\s+to\s+die)\b/g,
];

/** Words of death or self-harm that, outside an idiom, keep the model's self-harm signal. */
const HARM_WORDS =
  /\b(?:die|dies|died|dying|dead|death|kill|kills|killed|killing|murder|suicide|suicidal|overdose|od|pills?|tablets|meds|painkillers|hang|hanging|noose|cut|cutting|slit|wrists?|bleed|jump|jumping|drown|end\s+it|end\s+my|ending\s+it|my\s+life|wake\s+up|goodbye|gone|disappear|alive|kms|kys|unalive)\b/;

const plainQuotes = (text: string) => text.replace(/[’‘]/g, "'");

/** `text` with every match of `idioms` replaced by a space (case-insensitive), and whether any matched. */
function removeIdioms(text: string, idioms: Iterable<RegExp>): { rest: string; found: boolean } {
  let rest = text;
  let found = false;
  for (const idiom of idioms) {
    rest = rest.replace(new RegExp(idiom.source, 'gi'), () => {
      found = true;
      return ' ';
    });
  }
  return { rest, found };
}

/** True when `clean` holds a figurative idiom of death and no word of harm outside its idioms. */
export function figurativeSelfHarmOnly(clean: string): boolean {
  const { rest, found } = removeIdioms(plainQuotes(clean).toLowerCase(), IDIOMS);
  return found && !HARM_WORDS.test(rest);
}

/**
 * `clean` without its figurative idioms, for the toxicity heads' second reading, when every word of
 * death in it is figurative (`figurativeSelfHarmOnly`) and an idiom that cannot be said of a victim is
 * there to remove; otherwise undefined.
 */
export function withoutFigurativeIdioms(clean: string): string | undefined {
  if (!figurativeSelfHarmOnly(clean)) return undefined;
  const { rest, found } = removeIdioms(
    plainQuotes(clean),
    IDIOMS.filter((i) => !SAID_OF_A_VICTIM.has(i)),
  );
  return found ? rest.replace(/\s+/g, ' ').trim() : undefined;
}

/**
 * `detail` with each text whose words of death are all figurative read a second time without its
 * idioms (`withoutFigurativeIdioms`), each head keeping the lower score.
 */
export async function readFigurativeIdiomsRemoved(
  toxicity: ToxicityModel,
  pre: readonly Preprocessed[],
  detail: readonly ToxicityDetail[],
  options?: ScoreOptions,
): Promise<ToxicityDetail[]> {
  const again = pre.map((p) => {
    const rest = withoutFigurativeIdioms(p.clean);
    return rest === undefined || rest === '' ? undefined : preprocess(rest);
  });
  return readAgainKeepingLower(toxicity, again, detail, options);
}
