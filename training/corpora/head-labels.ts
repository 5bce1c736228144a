import type { ToxicityHead } from '@/lib/moderation/types';

/** A row's label per toxicity head (0 or 1, or a fraction of annotators); a missing head is unknown and masked. */
export type HeadLabels = Partial<Record<ToxicityHead, number>>;
