/**
 * What the evaluation reads from one moderation: the ensemble's decision and the model scores.
 * Here, in the lab, because the training checks (toxic_transformer_v1/contrast-check.ts) and the
 * evaluation scripts (scripts/eval-text) both read it, and training/ never imports scripts/.
 * "Flagged" is `summary !== 'likely_safe'` (possibly_, likely_ or highly_harmful), the same line
 * the review queue and `npm run eval:ensemble` draw: the ensemble score reached 0.5, i.e. some
 * issue reached its served threshold (decision 075).
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { LoadedModels } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import type { ToxicityScores } from '@/lib/moderation/types';

export interface Verdict {
  flagged: boolean;
  /** Ensemble score in [0, 1] (0.5 = at a served threshold). */
  score: number;
  summary: string;
  primaryIssue: string;
  sexismScore: number;
  /** The sexism model alone reached its threshold. */
  sexismFlagged: boolean;
  toxicity: ToxicityScores;
}

/** Scores texts, one verdict per text in input order. The seam unit tests fake. */
export type Scorer = (texts: readonly string[]) => Promise<Verdict[]>;

export const isFlagged = (summary: string) => summary !== 'likely_safe';

export function verdictOf(r: ModerationResponse): Verdict {
  const t = r.label.toxicity;
  return {
    flagged: isFlagged(r.ensemble.summary),
    score: r.ensemble.score,
    summary: r.ensemble.summary,
    primaryIssue: r.ensemble.primary_issue,
    sexismScore: r.label.sexism.score,
    sexismFlagged: r.label.sexism.threshold_met,
    toxicity: { overall: t.overall, insult: t.insult, threat: t.threat, identity_attack: t.identity_attack, profanity: t.profanity },
  };
}

/**
 * A scorer over the served models through moderate(), in chunks (the transformer sorts each call's
 * texts by length, so larger calls pad less), with a cache: a text scored for one section is not
 * scored again for another.
 */
export function moderationScorer(models: LoadedModels, chunk = 512): Scorer & { scored(): number } {
  const cache = new Map<string, Verdict>();
  const scorer = async (texts: readonly string[]): Promise<Verdict[]> => {
    const todo = [...new Set(texts.filter((t) => !cache.has(t)))];
    for (let i = 0; i < todo.length; i += chunk) {
      const part = todo.slice(i, i + chunk);
      const results = await moderate(models, part);
      results.forEach((r, k) => cache.set(part[k]!, verdictOf(r)));
    }
    return texts.map((t) => cache.get(t)!);
  };
  return Object.assign(scorer, { scored: () => cache.size });
}
