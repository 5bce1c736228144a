/**
 * The normalisation behind the review queue's text identity (text-hash.ts), shared with the
 * browser (the Moderate tab hashes a text with crypto.subtle to find its queue item): NFKC,
 * whitespace runs collapsed to one space, trimmed. Case is kept: "YOU IDIOT" trips the
 * caps-abuse rule and "you idiot" does not, so they can have different verdicts.
 */
export function normaliseForHash(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
}
