/**
 * Which toxicity heads flag a verdict on their own, for the training measures that count flagged
 * texts (long texts, noun-form sentences): every head but profanity, which the ensemble caps below
 * harmful when it is alone (PROFANITY_ALONE_CAP, lib/moderation/ensemble.ts).
 */
import { TOXICITY_HEADS, type ToxicityScores } from '@/lib/moderation/types';

export const FLAGGING_HEADS = TOXICITY_HEADS.filter((h) => h !== 'profanity');

/** Whether any flagging head reaches its threshold. */
export const flagsVerdict = (scores: ToxicityScores, thresholds: ToxicityScores): boolean =>
  FLAGGING_HEADS.some((h) => scores[h] >= thresholds[h]);
