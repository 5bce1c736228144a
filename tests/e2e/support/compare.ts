/** Field-by-field comparison of browser and server verdicts for the same texts. */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { SEVERITY_BANDS, SUMMARY_BANDS } from '@/lib/moderation/ensemble';
import { RULE_FLAGS, TOXICITY_HEADS } from '@/lib/moderation/types';

/**
 * A band decision may legitimately flip when the ensemble score sits this close to a band edge:
 * the two runtimes' int8 kernels differ by a few 1e-4. Such a flip is reported as a note.
 */
const EDGE_NOISE = 0.001;
const EDGES = [...new Set([...SUMMARY_BANDS, ...SEVERITY_BANDS].map(([lower]) => lower).filter((x) => x > 0))];
const nearEdge = (score: number) => EDGES.some((edge) => Math.abs(score - edge) < EDGE_NOISE);

export interface Comparison {
  /** Largest |browser - server| per score, over all texts. */
  maxDiff: Record<string, number>;
  /** Human-readable mismatches; empty when the two agree within `tolerance`. */
  problems: string[];
  /** Decision flips explained by a score within EDGE_NOISE of a band edge. */
  notes: string[];
}

export function compareVerdicts(
  texts: readonly string[],
  browser: readonly ModerationResponse[],
  server: readonly ModerationResponse[],
  tolerance: number,
): Comparison {
  const maxDiff: Record<string, number> = {};
  const problems: string[] = [];
  const notes: string[] = [];
  const scores = (r: ModerationResponse): Record<string, number> => ({
    ...Object.fromEntries(TOXICITY_HEADS.map((h) => [`toxicity.${h}`, r.label.toxicity[h]])),
    'sexism.score': r.label.sexism.score,
    'ensemble.score': r.ensemble.score,
  });
  texts.forEach((text, i) => {
    const b = browser[i];
    const s = server[i];
    const name = JSON.stringify(text);
    if (!b || !s) {
      problems.push(`${name}: missing result (browser ${!!b}, server ${!!s})`);
      return;
    }
    if (b.text !== s.text || b.text !== text) problems.push(`${name}: result out of order`);
    const bs = scores(b);
    const ss = scores(s);
    for (const key of Object.keys(ss)) {
      const d = Math.abs((bs[key] ?? NaN) - (ss[key] ?? NaN));
      maxDiff[key] = Math.max(maxDiff[key] ?? 0, Number.isNaN(d) ? Infinity : d);
      if (!(d < tolerance)) problems.push(`${name}: ${key} browser ${bs[key]} vs server ${ss[key]}`);
    }
    for (const flag of RULE_FLAGS) {
      if (b.label.rules[flag] !== s.label.rules[flag]) {
        problems.push(`${name}: rules.${flag} browser ${b.label.rules[flag]} vs server ${s.label.rules[flag]}`);
      }
    }
    for (const key of ['summary', 'primary_issue', 'severity'] as const) {
      if (b.ensemble[key] !== s.ensemble[key]) {
        const line = `${name}: ensemble.${key} browser ${b.ensemble[key]} vs server ${s.ensemble[key]}`;
        // primary_issue flips only at 0.5 (none vs an issue); a tie between issues is a real bug.
        const explained = nearEdge(s.ensemble.score) && (key !== 'primary_issue' || Math.abs(s.ensemble.score - 0.5) < EDGE_NOISE);
        (explained ? notes : problems).push(explained ? `${line} (score ${s.ensemble.score} at a band edge)` : line);
      }
    }
    if (b.label.sexism.threshold_met !== s.label.sexism.threshold_met) {
      problems.push(`${name}: sexism.threshold_met differs`);
    }
  });
  return { maxDiff, problems, notes };
}
