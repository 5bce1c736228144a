/**
 * Figurative wording of death and harm ("this workout is killing me", "I could die of embarrassment",
 * "I'd kill for a coffee"): a text whose only words of death or self-harm sit inside such an idiom is
 * not read as self-harm by the toxicity model's `self_harm` signal (docs/decisions/216). The rules'
 * own self-harm phrases are not affected, and a single word of harm outside the idiom ("this week is
 * killing me, taking all my pills tonight") keeps the signal.
 *
 * Reads `Preprocessed.clean`, after homoglyph, leetspeak and algospeak folding, so a disguised harm
 * word still counts.
 */

/** Idioms that use a word of death or killing for something else. Matched on the lower-cased text. */
const IDIOMS: readonly RegExp[] = [
  // "die of embarrassment", "nearly died laughing", "dying of boredom"
  /\b(?:die|dies|died|dying|dead)\s+(?:of|from|with)\s+(?:pure\s+|sheer\s+|secondhand\s+|second-hand\s+)?(?:embarrassment|shame|laughter|laughing|boredom|cringe|awkwardness|happiness|joy|excitement|curiosity|envy|jealousy|mortification|cuteness|heat|thirst|hunger)\b/g,
  /\b(?:die|died|dying)\s+laughing\b/g,
  // "dying to see it", "I'm dying for a coffee", "to die for"
  /\bdying\s+(?:to|for)\b/g,
  /\bto\s+die\s+for\b/g,
  /\b(?:would|could|'d)\s+(?:literally\s+)?(?:kill|murder|die)\s+for\b/g,
  /\bcould\s+murder\s+(?:a|an|some)\b/g,
  // "this workout is killing me", "my feet are killing me", "leg day has been killing me"
  /\b(?:is|are|was|were|'s|'re|has\s+been|have\s+been|keeps|kept)\s+(?:absolutely\s+|literally\s+|slowly\s+)?(?:killing|murdering)\s+(?:me|my)\b/g,
  // "bored to death", "scared to death"
  /\b(?:bored|scared|frightened|worried|tickled|stressed|loved|starving|freezing)\s+to\s+death\b/g,
  /\b(?:will|gonna|going\s+to)\s+be\s+the\s+(?:death|end)\s+of\s+me\b/g,
  /\bdead\s+(?:tired|serious|beat|on\s+my\s+feet)\b/g,
  /\bdrop[-\s]dead\s+gorgeous\b/g,
  // "killing time", "you killed it", "kill the lights"
  /\bkill(?:ing|ed|s)?\s+(?:time|it|the\s+lights|the\s+engine|the\s+music)\b/g,
  // things that die: "my phone died", "the battery is dying"
  /\b(?:phone|battery|laptop|car|plants?|torch|charger|headphones)\s+(?:is\s+|was\s+|just\s+|has\s+)?(?:died|dying|dead|about\s+to\s+die)\b/g,
];

/** Words of death or self-harm that, outside an idiom, keep the model's self-harm signal. */
const HARM_WORDS =
  /\b(?:die|dies|died|dying|dead|death|kill|kills|killed|killing|murder|suicide|suicidal|overdose|od|pills?|tablets|meds|painkillers|hang|hanging|noose|cut|cutting|slit|wrists?|bleed|jump|jumping|drown|end\s+it|end\s+my|ending\s+it|my\s+life|wake\s+up|goodbye|gone|disappear|alive|kms|kys|unalive)\b/;

/** True when `clean` holds a figurative idiom of death and no word of harm outside its idioms. */
export function figurativeSelfHarmOnly(clean: string): boolean {
  let text = clean.toLowerCase().replace(/[’‘]/g, "'");
  let found = false;
  for (const idiom of IDIOMS) {
    text = text.replace(idiom, () => {
      found = true;
      return ' ';
    });
  }
  return found && !HARM_WORDS.test(text);
}
