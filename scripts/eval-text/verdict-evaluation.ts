/**
 * The verdict suites' rows, one section per suite file, every flag counted as the API reports it
 * (`ensemble.summary !== 'likely_safe'`, verdicts.ts): benign identity sentences (overall, per kind,
 * per form, per group), use against mention (balanced accuracy and per category), self-harm (recall of
 * intent and of encouragement, false flags on figurative and safe uses) and veiled threats. Targets are
 * the product's: at most 3 % of benign identity sentences flagged and 15 % for the worst group,
 * functional balanced accuracy 0.78, 8 of 10 self-harm cases caught; "figurative uses stay safe" is
 * read as at most 10 % flagged. Pure over the verdicts, so unit tests feed fakes.
 */
import { balancedAccuracy } from '@/training/ml/metrics';
import { categoryRows, errorsTable } from './functional-evaluation';
import type { SuiteCase } from './functional-suite';
import { rate, type MetricRow, type Section } from './metric-row';
import type { ReportedCase, VerdictSuite } from './verdict-suites';
import type { Scorer, Verdict } from '@/training/ml/verdicts';

export const IDENTITY_API_FLAG_RATE_TARGET = 0.03;
export const IDENTITY_API_GROUP_FLAG_RATE_TARGET = 0.15;
export const USE_MENTION_BALANCED_ACCURACY_TARGET = 0.78;
export const SELF_HARM_RECALL_TARGET = 0.8;
export const SELF_HARM_SAFE_FLAG_RATE_TARGET = 0.1;

interface Scored {
  cases: readonly SuiteCase[];
  verdicts: readonly Verdict[];
}

/** Cases of `s` that `keep` selects, with their verdicts. */
function pick(s: Scored, keep: (c: SuiteCase) => boolean): Verdict[] {
  return s.cases.flatMap((c, i) => (keep(c) ? [s.verdicts[i]!] : []));
}

/** Share flagged among the cases `keep` selects. */
function flagRow(s: Scored, key: string, metric: string, keep: (c: SuiteCase) => boolean, extra: Partial<MetricRow> = {}): MetricRow {
  const v = pick(s, keep);
  return { key, metric, value: rate(v.map((x) => x.flagged)), percent: true, n: v.length, ...extra };
}

function balancedRow(s: Scored, key: string, metric: string, extra: Partial<MetricRow> = {}): MetricRow {
  return {
    key,
    metric,
    value: balancedAccuracy(
      s.cases.map((c) => (c.expected === 'harmful' ? 1 : 0)),
      s.verdicts.map((v) => (v.flagged ? 1 : 0)),
    ),
    n: s.cases.length,
    ...extra,
  };
}

const inOrder = (xs: readonly (string | undefined | null)[]) => [...new Set(xs.filter((x): x is string => !!x))];

export function identitySection(suite: VerdictSuite, verdicts: readonly Verdict[]): Section {
  const s: Scored = { cases: suite.cases, verdicts };
  const kindOf = new Map(suite.file.groups.map((g) => [g.id, g.kind ?? 'other']));
  const groupRows = suite.file.groups.map((g) =>
    flagRow(s, `verdicts.identity.group.${g.id}`, `${g.id} (${g.kind ?? 'other'})`, (c) => c.group === g.id, {
      target: { op: '<=', value: IDENTITY_API_GROUP_FLAG_RATE_TARGET },
    }),
  );
  const worst = groupRows.reduce((a, b) => ((b.value ?? 0) > (a.value ?? 0) ? b : a), groupRows[0]!);
  const kinds = inOrder(suite.file.groups.map((g) => g.kind));
  return {
    id: 'verdicts_identity',
    title: 'Benign identity sentences, as the API answers',
    intro:
      `${suite.cases.length} benign sentences (\`scripts/eval-text/identity-verdicts.json\`, ${suite.file.groups.length} groups ` +
      'by race, religion, nationality, gender, sexuality, disability and age): a group named in adjective, noun and plural ' +
      'form beside positive or neutral words, and short slogans. A sentence counts as flagged when the ensemble summary is ' +
      'not `likely_safe`, which is what a community sees and what fills the review queue. Evaluation only.',
    rows: [
      flagRow(s, 'verdicts.identity.flag_rate', 'benign identity sentences flagged, all groups', () => true, {
        target: { op: '<=', value: IDENTITY_API_FLAG_RATE_TARGET },
        headline: true,
      }),
      {
        key: 'verdicts.identity.max_group_flag_rate',
        metric: `highest group flag rate (${worst.key.slice('verdicts.identity.group.'.length)})`,
        value: worst.value,
        target: { op: '<=', value: IDENTITY_API_GROUP_FLAG_RATE_TARGET },
        percent: true,
        n: worst.n,
        headline: true,
      },
      ...kinds.map((k) => flagRow(s, `verdicts.identity.kind.${k}`, `${k} groups`, (c) => kindOf.get(c.group ?? '') === k)),
      ...inOrder(suite.cases.map((c) => c.category)).map((cat) =>
        flagRow(s, `verdicts.identity.category.${cat}`, `${cat} sentences`, (c) => c.category === cat),
      ),
      ...groupRows,
    ],
  };
}

export function useMentionSection(suite: VerdictSuite, verdicts: readonly Verdict[]): Section {
  const s: Scored = { cases: suite.cases, verdicts };
  const cats = categoryRows(suite.cases, verdicts, 'verdicts.use_mention.category');
  const right = (want: SuiteCase['expected']) => {
    const v = pick(s, (c) => c.expected === want);
    return { value: rate(v.map((x) => x.flagged === (want === 'harmful'))), n: v.length };
  };
  return {
    id: 'verdicts_use_mention',
    title: 'Use against mention, as the API answers',
    intro:
      `${suite.cases.length} cases (\`scripts/eval-text/use-mention-verdicts.json\`): counter-speech that quotes or refers to ` +
      'hate, negated hate, slurs mentioned as words, reported by the person they hit, reclaimed in-group and homonyms ' +
      '(expected not harmful), beside their hateful mirrors: direct hate, dehumanisation, threats, hateful negation, ' +
      'endorsed quotes, slurs aimed at someone or used as a label (expected harmful). Right = flagged (summary other than ' +
      '`likely_safe`) exactly when expected harmful. Evaluation only.',
    rows: [
      balancedRow(s, 'verdicts.use_mention.balanced_accuracy', 'use/mention suite: balanced accuracy', {
        target: { op: '>=', value: USE_MENTION_BALANCED_ACCURACY_TARGET },
        headline: true,
      }),
      {
        key: 'verdicts.use_mention.benign_accuracy',
        metric: 'use/mention suite: non-hateful cases answered right',
        percent: true,
        ...right('not_harmful'),
      },
      {
        key: 'verdicts.use_mention.hateful_accuracy',
        metric: 'use/mention suite: hateful cases answered right',
        percent: true,
        ...right('harmful'),
      },
      ...cats.rows,
    ],
  };
}

export function selfHarmSection(suite: VerdictSuite, verdicts: readonly Verdict[]): Section {
  const s: Scored = { cases: suite.cases, verdicts };
  const recall = { target: { op: '>=', value: SELF_HARM_RECALL_TARGET }, headline: true } as const;
  const safe = { target: { op: '<=', value: SELF_HARM_SAFE_FLAG_RATE_TARGET } } as const;
  const intent = pick(s, (c) => c.category === 'self_harm_intent');
  return {
    id: 'verdicts_self_harm',
    title: 'Self-harm, as the API answers',
    intro:
      `${suite.cases.length} cases (\`scripts/eval-text/self-harm-verdicts.json\`): intent in plain words and encouragement ` +
      'of someone else (expected flagged), figurative uses, fiction, survivors, crisis lines and news (expected ' +
      '`likely_safe`). "Queued as self-harm" is the share of intent cases whose primary issue is `self_harm`, the issue ' +
      'the review queue puts first. Evaluation only.',
    rows: [
      flagRow(s, 'verdicts.self_harm.intent_recall', 'self-harm intent flagged', (c) => c.category === 'self_harm_intent', recall),
      {
        key: 'verdicts.self_harm.intent_queued_as_self_harm',
        metric: 'self-harm intent queued as self-harm',
        value: rate(intent.map((v) => v.flagged && v.primaryIssue === 'self_harm')),
        percent: true,
        n: intent.length,
      },
      flagRow(
        s,
        'verdicts.self_harm.encouragement_recall',
        'encouragement of self-harm flagged',
        (c) => c.category === 'self_harm_encouragement',
        {
          ...recall,
          headline: false,
        },
      ),
      flagRow(
        s,
        'verdicts.self_harm.figurative_flag_rate',
        'figurative self-harm wording flagged',
        (c) => c.category === 'self_harm_figurative',
        {
          ...safe,
          headline: true,
        },
      ),
      flagRow(
        s,
        'verdicts.self_harm.safe_context_flag_rate',
        'fiction, survivors, crisis lines, news flagged',
        (c) => c.category === 'self_harm_safe_context',
        safe,
      ),
      // A second set of intent and of figurative or safe-context sentences, written later and apart
      // from the first, so that a change designed after the first set's results is judged on both.
      flagRow(
        s,
        'verdicts.self_harm.intent_recall_2',
        'self-harm intent flagged (second set)',
        (c) => c.category === 'self_harm_intent_2',
        {
          ...recall,
          headline: false,
        },
      ),
      flagRow(
        s,
        'verdicts.self_harm.safe_flag_rate_2',
        'figurative and safe-context wording flagged (second set)',
        (c) => c.category === 'self_harm_safe_2',
        safe,
      ),
      // A third set, written after the second had judged three designs and before the next one ran.
      flagRow(s, 'verdicts.self_harm.intent_recall_3', 'self-harm intent flagged (third set)', (c) => c.category === 'self_harm_intent_3', {
        ...recall,
        headline: false,
      }),
      flagRow(
        s,
        'verdicts.self_harm.safe_flag_rate_3',
        'figurative and safe-context wording flagged (third set)',
        (c) => c.category === 'self_harm_safe_3',
        safe,
      ),
      balancedRow(s, 'verdicts.self_harm.balanced_accuracy', 'self-harm suite: balanced accuracy'),
    ],
  };
}

export function veiledThreatSection(suite: VerdictSuite, verdicts: readonly Verdict[]): Section {
  const s: Scored = { cases: suite.cases, verdicts };
  return {
    id: 'verdicts_veiled_threat',
    title: 'Veiled threats, as the API answers',
    intro:
      `${suite.cases.length} cases (\`scripts/eval-text/veiled-threat-verdicts.json\`): threats with no threat word (expected ` +
      'flagged) and everyday sentences built the same way that threaten nobody (expected `likely_safe`). Evaluation only.',
    rows: [
      flagRow(s, 'verdicts.veiled_threat.recall', 'veiled threats flagged', (c) => c.expected === 'harmful', { headline: true }),
      flagRow(s, 'verdicts.veiled_threat.lookalike_flag_rate', 'benign lookalikes flagged', (c) => c.expected === 'not_harmful'),
      balancedRow(s, 'verdicts.veiled_threat.balanced_accuracy', 'veiled-threat suite: balanced accuracy'),
    ],
  };
}

export interface ReportedVerdict extends ReportedCase {
  summary: string;
  primaryIssue: string;
  score: number;
  right: boolean;
}

export interface VerdictResult {
  sections: Section[];
  /** Per section id: markdown appended under its table (the wrong verdicts by category; the reported failures). */
  extras: Record<string, string[]>;
  /** Every category of every suite: the primary issues of the wrong verdicts ("missed" for a harmful case let through). */
  errorsByCategory: Record<string, Record<string, number>>;
  reported: ReportedVerdict[];
}

/** Scores every verdict suite and the reported failures with `scorer`, and builds the sections. */
export async function evaluateVerdictSuites(
  suites: readonly VerdictSuite[],
  reported: readonly ReportedCase[],
  scorer: Scorer,
): Promise<VerdictResult> {
  const build = {
    identity: identitySection,
    use_mention: useMentionSection,
    self_harm: selfHarmSection,
    veiled_threat: veiledThreatSection,
  };
  const sections: Section[] = [];
  const extras: Record<string, string[]> = {};
  const errorsByCategory: Record<string, Record<string, number>> = {};
  for (const id of Object.keys(build) as VerdictSuite['id'][]) {
    const suite = suites.find((s) => s.id === id);
    if (!suite) throw new Error(`verdict suite ${id} missing`);
    const verdicts = await scorer(suite.cases.map((c) => c.text));
    const section = build[id](suite, verdicts);
    const errors = categoryRows(suite.cases, verdicts, section.id).errorsByCategory;
    sections.push(section);
    extras[section.id] = errorsTable(errors);
    Object.assign(errorsByCategory, Object.fromEntries(errors));
  }
  const rv = await scorer(reported.map((r) => r.text));
  const reportedVerdicts = reported.map((r, i) => ({
    ...r,
    summary: rv[i]!.summary,
    primaryIssue: rv[i]!.primaryIssue,
    score: rv[i]!.score,
    right: rv[i]!.flagged === (r.expected === 'harmful'),
  }));
  const last = sections[sections.length - 1]!.id;
  extras[last] = [...extras[last]!, '', ...reportedTable(reportedVerdicts)];
  return { sections, extras, errorsByCategory, reported: reportedVerdicts };
}

/** The reported failures as a markdown table: reported, never counted in a metric. */
function reportedTable(reported: readonly ReportedVerdict[]): string[] {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  return [
    `Reported failures (\`scripts/eval-text/reported-failures.json\`, verbatim, in no metric): ${reported.filter((r) => r.right).length} of ${reported.length} answered right.`,
    '',
    '| text | expected | summary | primary issue | right? |',
    '|---|---|---|---|:---:|',
    ...reported.map(
      (r) => `| ${esc(r.text)} | ${r.expected.replace('_', ' ')} | ${r.summary} | ${r.primaryIssue} | ${r.right ? 'yes' : '**no**'} |`,
    ),
  ];
}
