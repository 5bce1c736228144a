/**
 * Explanations a moderator can read (docs/decisions/171-triage-view.md): the explain endpoint
 * speaks in model features (`char: tra`, `word:women belong`, `encoder:sexism`) and field names
 * (`slur_detected`, `toxic_transformer_v1`). This module turns them into words and phrases of the
 * text itself, per model, and into the marks the review item draws over the full text.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';

type Explanations = NonNullable<ModerationResponse['explanations']>;
type RuleSpan = Explanations['rules'][number];
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
  kind: 'rule' | 'sexism';
  /** Says in words why this part is marked. */
  why: string;
}

/** What to mark over the text: rule matches, then the sexism model's strongest pushes towards sexist (where no rule is). */
export function marksFor(text: string, rules: readonly RuleSpan[], sexism: SexismReading, top = 5): Mark[] {
  const marks: Mark[] = rules
    .filter((s) => s.start >= 0 && s.end <= text.length && s.end > s.start)
    .map((s) => ({ start: s.start, end: s.end, kind: 'rule' as const, why: `rule: ${ruleWords(s.flag)}` }));
  for (const p of sexism.towards.slice(0, top)) {
    for (const [start, end] of p.spans) marks.push({ start, end, kind: 'sexism', why: 'pushed the sexism model towards sexist' });
  }
  return marks.sort((a, b) => a.start - b.start || (a.kind === 'rule' ? -1 : 1));
}

export type Segment = { text: string; mark?: Mark };

/** The text cut into plain and marked pieces; a mark that overlaps an earlier one is left out. */
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
