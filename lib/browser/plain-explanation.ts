/**
 * Explanations a moderator can read (docs/decisions/171-triage-view.md): the explain endpoint
 * speaks in model features (`char: tra`, `word:women belong`, `encoder:sexism`) and field names
 * (`slur_detected`, `toxic_transformer_v1`). This module turns them into words and phrases of the
 * text itself, per model, and into the marks the review item draws over the full text.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';

type Explanations = NonNullable<ModerationResponse['explanations']>;
type Decision = NonNullable<Explanations['decision']>;

const RULE_WORDS: Record<string, string> = {
  slur_detected: 'slur',
  threat_detected: 'threat',
  self_harm_flag: 'self-harm',
  profanity_flag: 'profanity',
  caps_abuse: 'shouting (capitals)',
  character_repetition: 'repeated characters',
};

const ISSUE_WORDS: Record<string, string> = {
  sexism: 'sexism',
  toxicity: 'toxic language',
  insult: 'an insult',
  threat: 'a threat',
  identity_attack: 'an attack on a group or identity',
  profanity: 'profanity',
  slur: 'a slur',
  self_harm: 'self-harm',
  none: 'nothing harmful',
};

const MODEL_WORDS: Record<string, string> = {
  sexism_lasso_v1: 'The sexism model',
  toxic_transformer_v1: 'The toxicity model',
  rules_v1: 'The word lists and patterns',
};

export const ruleWords = (flag: string) => RULE_WORDS[flag] ?? flag.replace(/_(detected|flag)$/, '').replace(/_/g, ' ');
export const issueWords = (issue: string) => ISSUE_WORDS[issue] ?? issue.replace(/_/g, ' ');

/** One sentence: which model decided, what it saw, and where its line is. */
export function decisionSentence(d: Decision): string {
  const who = MODEL_WORDS[d.model] ?? d.model;
  if (d.issue === 'none')
    return `Nothing reached a flagging line; the closest was ${who.toLowerCase()} (risk ${d.risk.toFixed(2)} of 0.50).`;
  if (d.probability === null || d.threshold === null) return `${who} matched ${issueWords(d.issue)}; a match flags the text on its own.`;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  return `${who} rated this ${issueWords(d.issue)} at ${pct(d.probability)}; it flags from ${pct(d.threshold)}.`;
}

export interface Phrase {
  /** Words of the text (as written there when found, else as the model knows them). */
  phrase: string;
  /** Push on the sexism model's log-odds: positive towards sexist. */
  weight: number;
  /** Where the phrase occurs in the text ([start, end) offsets); empty when not found as written. */
  spans: [number, number][];
}

export interface SexismReading {
  towards: Phrase[];
  against: Phrase[];
  /** Parts of the model that read the whole text rather than words. */
  whole: string[];
}

const WORD = /[\p{L}\p{N}'’]+/gu;

function wordsOf(text: string): { word: string; start: number; end: number }[] {
  return [...text.matchAll(WORD)].map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
}

/** Every occurrence of a sequence of whole words, case-insensitive. */
function findPhrase(text: string, phrase: string): [number, number][] {
  const want = phrase.toLowerCase().match(WORD) ?? [];
  if (want.length === 0) return [];
  const words = wordsOf(text);
  const out: [number, number][] = [];
  for (let i = 0; i + want.length <= words.length; i++) {
    if (want.every((w, k) => words[i + k]!.word === w)) out.push([words[i]!.start, words[i + want.length - 1]!.end]);
  }
  return out;
}

/**
 * The sexism model's contributions as words of the text: a word n-gram is its phrase; a character
 * n-gram (` tra`) goes to the words that contain it (its weight shared among them); the model's
 * dense and encoder terms read the whole text and are named as such.
 */
export function sexismReading(text: string, ngrams: Explanations['sexism']): SexismReading {
  const phrases = new Map<string, Phrase>();
  const whole: string[] = [];
  const words = wordsOf(text);
  const add = (key: string, shown: string, weight: number, spans: [number, number][]) => {
    const p = phrases.get(key) ?? { phrase: shown, weight: 0, spans: [] };
    p.weight += weight;
    for (const s of spans) if (!p.spans.some((t) => t[0] === s[0] && t[1] === s[1])) p.spans.push(s);
    phrases.set(key, p);
  };
  for (const { feature, weight } of ngrams) {
    const colon = feature.indexOf(':');
    const kind = feature.slice(0, colon);
    const body = feature.slice(colon + 1);
    if (kind === 'word') {
      const spans = findPhrase(text, body);
      add(body.toLowerCase(), spans.length ? text.slice(spans[0]![0], spans[0]![1]) : body, weight, spans);
    } else if (kind === 'char') {
      // char_wb n-grams pad each word with a space: a leading space marks a word start, a trailing one its end.
      const frag = body.toLowerCase();
      const hits = words.filter((w) => ` ${w.word} `.includes(frag));
      const distinct = [...new Set(hits.map((h) => h.word))];
      for (const w of distinct) {
        const spans = hits.filter((h) => h.word === w).map((h): [number, number] => [h.start, h.end]);
        add(w, text.slice(spans[0]![0], spans[0]![1]), weight / distinct.length, spans);
      }
    } else if (kind === 'encoder') {
      whole.push(`the toxicity model's reading of the whole text as ${issueWords(body)} (${weight >= 0 ? 'towards' : 'against'})`);
    } else {
      whole.push(`the overall wording of the text (${weight >= 0 ? 'towards' : 'against'})`);
    }
  }
  const all = [...phrases.values()].filter((p) => Math.abs(p.weight) >= 0.005).sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight));
  return { towards: all.filter((p) => p.weight > 0), against: all.filter((p) => p.weight < 0), whole };
}

export interface Mark {
  start: number;
  end: number;
  /** `passage`: the sentence (or window) that decided; the others mark words inside or outside it. */
  kind: 'rule' | 'sexism' | 'passage';
  /** Says in words why this part is marked. */
  why: string;
  /** 0 for the strongest mark, the one the console scrolls into view. */
  rank: number;
}

/** Most marks drawn over a text: a handful, so the reason stands out (docs/decisions/196). */
export const MAX_MARKS = 5;

/** Rule flags that set a risk of their own, strongest first (lib/moderation/ensemble.ts RULE_RISK), with the issue each raises. */
const RISK_RULES: readonly [string, string][] = [
  ['slur_detected', 'slur'],
  ['threat_detected', 'threat'],
  ['self_harm_flag', 'self_harm'],
  ['profanity_flag', 'profanity'],
];

/**
 * What to mark over the text: only what moved a model that decided the verdict, at most `max`
 * marks, strongest first. Nothing on a likely-safe verdict. In order: the primary issue's rule
 * matches and the deciding sentence (`decision.span`); slur, threat and self-harm matches (each
 * flags a text on its own); the sexism model's strongest words, one occurrence each and only when
 * sexism is the primary issue; profanity matches (they count once something else flagged the text).
 */
export function marksFor(text: string, e: Pick<Explanations, 'rules' | 'sexism' | 'decision'>, max = MAX_MARKS): Mark[] {
  const d = e.decision;
  if (!d || d.issue === 'none') return [];
  const inText = (s: { start: number; end: number }) => s.start >= 0 && s.end <= text.length && s.end > s.start;
  const out: Omit<Mark, 'rank'>[] = [];
  const add = (m: Omit<Mark, 'rank'>) => {
    if (out.length < max && inText(m) && !out.some((o) => o.kind === m.kind && o.start === m.start && o.end === m.end)) out.push(m);
  };
  // A slur only mentioned ("the word X") set no risk of its own: it is not why the text was flagged.
  const ruleMarks = (flag: string) =>
    e.rules
      .filter((r) => r.flag === flag && !r.mention)
      .forEach((r) => add({ start: r.start, end: r.end, kind: 'rule', why: `rule: ${ruleWords(r.flag)}` }));
  const primaryRule = RISK_RULES.find(([, issue]) => issue === d.issue)?.[0];
  if (d.model === 'rules_v1' && primaryRule) ruleMarks(primaryRule);
  if (d.span) add({ ...d.span, kind: 'passage', why: `the sentence that decided: ${issueWords(d.issue)}` });
  if (primaryRule) ruleMarks(primaryRule);
  // A slur, threat or self-harm match flags the text on its own: it decided as much as the primary issue.
  for (const [flag] of RISK_RULES.slice(0, 3)) ruleMarks(flag);
  if (d.issue === 'sexism') {
    const towards = sexismReading(text, e.sexism).towards;
    const strongest = towards[0]?.weight ?? 0;
    // Words that moved the model a fifth as much as its strongest word or less are not the reason.
    for (const p of towards.filter((t) => t.weight >= strongest / 5)) {
      const span = p.spans[0];
      if (span) add({ start: span[0], end: span[1], kind: 'sexism', why: 'pushed the sexism model towards sexist' });
    }
  }
  ruleMarks('profanity_flag');
  const order = { passage: 0, rule: 1, sexism: 2 };
  return out.map((m, rank) => ({ ...m, rank })).sort((a, b) => a.start - b.start || order[a.kind] - order[b.kind]);
}

export type Segment = { text: string; mark?: Mark };

/** The text cut into plain and marked pieces; a mark that overlaps an earlier one is left out (the passage: see passageLayout). */
export function segmentsOf(text: string, marks: readonly Mark[]): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const m of marks) {
    if (m.start < at) continue;
    if (m.start > at) out.push({ text: text.slice(at, m.start) });
    out.push({ text: text.slice(m.start, m.end), mark: m });
    at = m.end;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

/**
 * The text around its deciding passage: the pieces before it, inside it (word marks within the
 * passage are kept, cut to it) and after it. Without a passage, everything is `before`.
 */
export function passageLayout(
  text: string,
  marks: readonly Mark[],
): { before: Segment[]; passage?: { mark: Mark; inside: Segment[] }; after: Segment[] } {
  const passage = marks.find((m) => m.kind === 'passage');
  const words = marks.filter((m) => m.kind !== 'passage');
  if (!passage) return { before: segmentsOf(text, words), after: [] };
  const within = (from: number, to: number) =>
    words.filter((m) => m.start >= from && m.end <= to).map((m) => ({ ...m, start: m.start - from, end: m.end - from }));
  return {
    before: segmentsOf(text.slice(0, passage.start), within(0, passage.start)),
    passage: { mark: passage, inside: segmentsOf(text.slice(passage.start, passage.end), within(passage.start, passage.end)) },
    after: segmentsOf(text.slice(passage.end), within(passage.end, text.length)),
  };
}
