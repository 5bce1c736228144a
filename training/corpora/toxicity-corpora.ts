/**
 * Reads the labelled corpora and maps each one onto the five toxicity heads with a per-row mask.
 * A head a corpus does not label is masked (it contributes nothing to that head's loss). The
 * mapping is the one documented in models/toxic_transformer_v1/README.md "Label mapping"; change both
 * together.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvRecords } from '@/training/ml/csv';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import { DECISION_CORPUS, type DecisionRow } from './decision-corpus';
import type { HeadLabels } from './head-labels';

export interface RawRow {
  text: string;
  corpus: string;
  /** The uploader lowercased the text and stripped punctuation. */
  lowercased: boolean;
  labels: HeadLabels;
}

type Rec = Record<string, string>;

function readCsv(path: string, delimiter = ','): Rec[] {
  return parseCsvRecords(readFileSync(path), { delimiter, noQuotes: delimiter === '\t', relaxColumnCount: true }).rows;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
export function decodeEntities(s: string): string {
  return s.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp < 0x110000 ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** The Kaggle insults file stores Python-escaped strings wrapped in quotes. */
function unescapeInsult(s: string): string {
  let t = s.trim();
  if (t.startsWith('"') && t.endsWith('"') && t.length >= 2) t = t.slice(1, -1);
  return t
    .replace(/\\\\n|\\n|\\\\r|\\r|\\\\t|\\t/g, ' ')
    .replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\(['"\\])/g, '$1');
}

const num = (v: string | undefined): number => Number(v ?? 'NaN');
const bin = (v: string | undefined): number => (num(v) >= 0.5 ? 1 : 0);

function jigsaw6(r: Rec): HeadLabels {
  return {
    overall: Math.max(bin(r.toxic), bin(r.severe_toxic)),
    insult: bin(r.insult),
    threat: bin(r.threat),
    identity_attack: bin(r.identity_hate),
    profanity: bin(r.obscene),
  };
}
const ALL_ZERO: HeadLabels = { overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0 };

interface CorpusSpec {
  name: string;
  file: string;
  lowercased?: boolean;
  delimiter?: string;
  text: (r: Rec) => string | undefined;
  /** Labels for a row, or null to skip it. */
  labels: (r: Rec) => HeadLabels | null;
}

export const CORPORA: CorpusSpec[] = [
  {
    name: 'jigsaw_6label',
    file: 'jigsaw_toxic_6label_train.csv',
    text: (r) => r.comment_text,
    labels: jigsaw6,
  },
  {
    name: 'jigsaw_binary',
    file: 'jigsaw_toxic_binary.csv',
    text: (r) => r.comment_text,
    labels: (r) => ({ overall: bin(r.toxic) }),
  },
  {
    name: 'jigsaw_6label_extra',
    file: 'jigsaw_toxic_6label_extra_lowercased.csv',
    lowercased: true,
    text: (r) => r.comment_text,
    labels: (r) => (r.in_steering_train_by_id === '1' ? null : jigsaw6(r)),
  },
  {
    name: 'olid',
    file: 'olid_training_v1.tsv',
    delimiter: '\t',
    text: (r) => r.tweet,
    labels: (r) => {
      if (r.subtask_a === 'NOT') return ALL_ZERO;
      if (r.subtask_a !== 'OFF') return null;
      // Untargeted offence is swearing without a target: no insult, no threat, no group attack.
      if (r.subtask_b === 'UNT') return { overall: 1, insult: 0, threat: 0, identity_attack: 0 };
      return { overall: 1 };
    },
  },
  {
    name: 'insults',
    file: 'insults_train.csv',
    text: (r) => (r.Comment === undefined ? undefined : unescapeInsult(r.Comment)),
    labels: (r) => (bin(r.Insult) === 1 ? { overall: 1, insult: 1 } : { insult: 0 }),
  },
  {
    name: 'insults',
    file: 'insults_test.csv',
    text: (r) => (r.Comment === undefined ? undefined : unescapeInsult(r.Comment)),
    labels: (r) => (bin(r.Insult) === 1 ? { overall: 1, insult: 1 } : { insult: 0 }),
  },
  {
    name: 'davidson',
    file: 'davidson_hate_offensive.csv',
    text: (r) => r.tweet,
    labels: (r) => {
      if (r.class === '0') return { overall: 1, identity_attack: 1 };
      if (r.class === '1') return { overall: 1, identity_attack: 0 };
      if (r.class === '2') return ALL_ZERO;
      return null;
    },
  },
  {
    name: 'toxigen',
    file: 'toxigen_statements.csv',
    text: (r) => r.text,
    labels: (r) => (r.label === 'hate' ? { overall: 1, identity_attack: 1 } : r.label === 'neutral' ? ALL_ZERO : null),
  },
  {
    name: 'civil_spans',
    file: 'civil_comments_toxic_spans.csv',
    text: (r) => r.comment_text,
    // Span-derived subtypes undercount, so only positives are trusted.
    labels: (r) => {
      const l: HeadLabels = {};
      if (num(r.toxic) >= 0.5) l.overall = 1;
      if (num(r.insult) >= 0.5) l.insult = 1;
      if (num(r.threat) >= 0.5) l.threat = 1;
      if (num(r.identity_attack) >= 0.5) l.identity_attack = 1;
      if (num(r.obscene) >= 0.5) l.profanity = 1;
      return Object.keys(l).length > 0 ? l : null;
    },
  },
  {
    name: 'hatexplain',
    file: 'hatexplain.csv',
    lowercased: true,
    text: (r) => r.comment_text,
    labels: (r) =>
      r.label === '0'
        ? { overall: 0, identity_attack: 0, threat: 0 }
        : r.label === '1'
          ? { overall: 1 }
          : r.label === '2'
            ? { overall: 1, identity_attack: 1 }
            : null,
  },
  {
    name: 'gab',
    file: 'gab_hate_corpus.csv',
    text: (r) => r.comment_text,
    labels: (r) => {
      const hd = bin(r.hd);
      const cv = bin(r.cv);
      const vo = bin(r.vo);
      const l: HeadLabels = { identity_attack: hd, threat: cv, profanity: vo };
      if (hd + cv + vo > 0) l.overall = 1;
      return l;
    },
  },
  {
    name: 'implicit_hate',
    file: 'implicit_hate.csv',
    text: (r) => r.comment_text,
    labels: (r) =>
      r.class === 'not_hate'
        ? { identity_attack: 0 }
        : r.class === 'implicit_hate' || r.class === 'explicit_hate'
          ? { overall: 1, identity_attack: 1 }
          : null,
  },
  {
    name: 'stormfront',
    file: 'stormfront_hate.csv',
    text: (r) => r.comment_text,
    labels: (r) =>
      r.label === 'hate' ? { overall: 1, identity_attack: 1 } : r.label === 'noHate' ? { overall: 0, identity_attack: 0 } : null,
  },
  {
    // Abuse aimed at conversational agents (ConvAbuse). Non-abusive turns are negative on every head;
    // abusive ones carry their identity-type shares; an abusive turn without an identity type is not
    // a group attack. Only `user` (the annotated turn) is read.
    name: 'convabuse',
    file: 'convabuse.csv',
    text: (r) => r.user,
    labels: (r) => {
      if (num(r.abuse_share) < 0.5) return ALL_ZERO;
      const identity = Math.max(...['ableist', 'homophobic', 'racist', 'sexist', 'transphobic'].map((t) => num(r[`${t}_share`])));
      const l: HeadLabels = { overall: 1, identity_attack: identity >= 0.5 ? 1 : 0 };
      if (num(r.intellectual_share) >= 0.5) l.insult = 1;
      return l;
    },
  },
  {
    // DynaHate (dev split): adversarial hate / not-hate, half of it minimal-edit perturbations. Its
    // "not hate" includes non-hateful abuse ("he's a moron"), so it says nothing about `overall`.
    name: 'dynahate',
    file: 'dynahate_dev.csv',
    lowercased: true,
    text: (r) => r.text,
    labels: (r) => (r.label === '1' ? { overall: 1, identity_attack: 1 } : r.label === '0' ? { overall: 0, identity_attack: 0 } : null),
  },
  {
    name: 'hateval',
    file: 'hateval2019.csv',
    text: (r) => r.comment_text,
    labels: (r) => (r.hate === '1' ? { overall: 1, identity_attack: 1 } : r.hate === '0' ? { identity_attack: 0 } : null),
  },
];

export const JIGSAW_CORPORA = new Set(['jigsaw_6label', 'jigsaw_binary', 'jigsaw_6label_extra']);

/**
 * Corpora no model trains or tunes on: `npm run eval:text` reports them apart as out-of-domain data.
 * Stormfront (white-supremacist forum posts) is held out because it is a source and register none of
 * the training corpora share.
 */
export const OUT_OF_DOMAIN_CORPORA = new Set(['stormfront']);

/**
 * Rows of the training corpora; `{ outOfDomain: true }` returns the held-out corpora instead.
 * `decisions`: rows of moderators' decisions (decision-corpus.ts), added to the training corpora.
 */
export function readCorpora(dataDir: string, opts: { outOfDomain?: boolean; decisions?: readonly DecisionRow[] } = {}): RawRow[] {
  const rows: RawRow[] = [];
  for (const spec of CORPORA) {
    if (OUT_OF_DOMAIN_CORPORA.has(spec.name) !== (opts.outOfDomain ?? false)) continue;
    const recs = readCsv(join(dataDir, 'text', spec.file), spec.delimiter);
    for (const r of recs) {
      const text = spec.text(r);
      if (!text || text.trim().length === 0) continue;
      const labels = spec.labels(r);
      if (!labels) continue;
      rows.push({ text: decodeEntities(text), corpus: spec.name, lowercased: spec.lowercased ?? false, labels });
    }
  }
  if (!opts.outOfDomain) {
    for (const d of opts.decisions ?? []) {
      if (Object.keys(d.labels).length > 0) rows.push({ text: d.text, corpus: DECISION_CORPUS, lowercased: false, labels: d.labels });
    }
  }
  return rows;
}

/** Labels as dense arrays in TOXICITY_HEADS order: value and mask. */
export function denseLabels(l: HeadLabels): { y: number[]; m: number[] } {
  return {
    y: TOXICITY_HEADS.map((h) => l[h] ?? 0),
    m: TOXICITY_HEADS.map((h) => (l[h] === undefined ? 0 : 1)),
  };
}
