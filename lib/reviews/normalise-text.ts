/**
 * The normalisation behind the review queue's text identity (text-hash.ts), shared with the
 * browser (the Moderate tab hashes a text with crypto.subtle to find its queue item): invisible
 * characters removed (the rules' own set, lib/moderation/normalise/remove-invisible.ts, so a text
 * with one inserted is the same item as the text without it), NFKC, whitespace runs collapsed to one
 * space, trimmed. Case is kept: "YOU IDIOT" trips the caps-abuse rule and "you idiot" does not, so
 * they can have different verdicts.
 */
import { stripInvisible } from '@/lib/moderation/normalise/remove-invisible';

export function normaliseForHash(text: string): string {
  return stripInvisible(text).normalize('NFKC').replace(/\s+/gu, ' ').trim();
}
