/**
 * The verdict suites: hand-written files in the functional suite's shape (functional-suite.ts), each
 * with its own groups, written in the forms where the served verdicts go wrong. Each file is one
 * section of the report (verdict-evaluation.ts). Evaluation only: the template overlap check keeps
 * every file disjoint from the training templates.
 *
 * reported-failures.json is apart: sentences users reported, kept verbatim; their verdicts are
 * printed, never counted in a metric (nothing may be tuned on them).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Expected, expandSuite, readSuite, type SuiteCase, type SuiteFile } from './functional-suite';

const DIR = dirname(fileURLToPath(import.meta.url));

export const VERDICT_SUITES = {
  identity: 'identity-verdicts.json',
  use_mention: 'use-mention-verdicts.json',
  self_harm: 'self-harm-verdicts.json',
  veiled_threat: 'veiled-threat-verdicts.json',
} as const;
export type VerdictSuiteId = keyof typeof VERDICT_SUITES;
export const VERDICT_SUITE_IDS = Object.keys(VERDICT_SUITES) as VerdictSuiteId[];

export const REPORTED_FAILURES_PATH = join(DIR, 'reported-failures.json');

export const verdictSuitePath = (id: VerdictSuiteId) => join(DIR, VERDICT_SUITES[id]);

export interface VerdictSuite {
  id: VerdictSuiteId;
  path: string;
  file: SuiteFile;
  cases: SuiteCase[];
}

/** Every verdict suite file, read, checked and expanded; ids are unique across the files. */
export function readVerdictSuites(): VerdictSuite[] {
  const seen = new Set<string>();
  return VERDICT_SUITE_IDS.map((id) => {
    const path = verdictSuitePath(id);
    const file = readSuite(path);
    const cases = expandSuite(file);
    for (const cat of new Set(cases.map((c) => c.category))) {
      if (seen.has(cat)) throw new Error(`${path}: category ${cat} is also a category of another verdict suite`);
      seen.add(cat);
    }
    return { id, path, file, cases };
  });
}

export interface ReportedCase {
  text: string;
  expected: Expected;
}

export function readReportedFailures(path = REPORTED_FAILURES_PATH): ReportedCase[] {
  const json = JSON.parse(readFileSync(path, 'utf8')) as { cases?: unknown };
  if (!Array.isArray(json.cases)) throw new Error(`${path}: no "cases" list`);
  return json.cases.map((c: unknown, i) => {
    const r = c as Partial<ReportedCase>;
    if (typeof r.text !== 'string' || r.text.trim() === '') throw new Error(`${path}: case ${i}: no text`);
    if (r.expected !== 'harmful' && r.expected !== 'not_harmful') throw new Error(`${path}: case ${i}: bad expected "${r.expected}"`);
    return { text: r.text, expected: r.expected };
  });
}
