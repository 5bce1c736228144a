/**
 * `threat_detected`: the author states an intent, wish or call for physical harm or death
 * against the reader or someone else ("I will find you and kill you", "you should be shot",
 * "kys"). Phrases live in `lib/moderation/lexicons/threats.json`; the precise definition and the known
 * misses are in the model card.
 */
import threats from '@/lib/moderation/lexicons/threats.json';
import { type PhraseMatcher, createPhraseMatcher } from './match-phrases';

export function createThreatDetector(): PhraseMatcher {
  return createPhraseMatcher('threat_detected', threats);
}
