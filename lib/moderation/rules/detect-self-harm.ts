/**
 * `self_harm_flag`: the author expresses intent, ideation or ongoing acts of harming or killing
 * themself ("I want to kill myself", "cut myself", "end my life", "kms"). Telling someone else
 * to do it ("kys") is a threat, not this flag: the people at risk differ. Phrases live in
 * `lib/moderation/lexicons/self-harm.json`.
 */
import selfHarm from '@/lib/moderation/lexicons/self-harm.json';
import { type PhraseMatcher, createPhraseMatcher } from './match-phrases';

export function createSelfHarmDetector(): PhraseMatcher {
  return createPhraseMatcher('self_harm_flag', selfHarm);
}
