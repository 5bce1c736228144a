/**
 * Overlap between the evaluation suite's frames and every template file a model trains or tunes on
 * (decision 075: evaluation templates must differ from training templates in frames AND words).
 *
 * A template file is any JSON under training/ holding strings with `{placeholders}` (today
 * toxic_transformer_v1/identity-augmentation.json, identity-contrast.json, identity-validation.json;
 * a sexism template file is found the same way, whatever its shape). Frames are
 * compared after normalisation: lower case, every placeholder and every group word (from both
 * sides) becomes one slot token, articles and punctuation dropped. A shared frame is a normalised
 * frame present on both sides, or a pair whose content-word trigram sets overlap by Jaccard >= 0.6.
 * A shared content trigram (three words in a row, one of them a content word, after the same
 * normalisation) fails too: a frame with its slots filled differently stays under the Jaccard bar.
 * Shared content words are reported, not failed on: common words are unavoidable.
 * The suite side is every evaluation suite file, each on its own with its own groups: both
 * functional suite files (as one) and the verdict suites (verdict-suites.ts); besides frames, the
 * long-text paragraphs and endings: a harmful ending or a paragraph is as much evaluation text as a
 * frame. The second suite file is also checked against the first (the second file must add new
 * frames, not rewordings of old ones). The reported failures (reported-failures.json) are users'
 * sentences kept verbatim: their overlap is printed, never failed on, as they are in no metric.
 *
 *   tsx scripts/eval-text/template-overlap.ts   (exit 1 when a frame or a content trigram is shared)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSuite, readSuiteV2, SUITE_PATH, SUITE_V2_PATH, type SuiteFile } from './functional-suite';
import { readReportedFailures, readVerdictSuites, REPORTED_FAILURES_PATH } from './verdict-suites';
import { isScript } from '@/training/ml/run-as-script';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const SLOT = '<slot>';
export const NEAR_FRAME_JACCARD = 0.6;

const STOPWORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from as is are was were be been being am do does did ' +
    'i me my we us our you your he him his she her it its they them their this that these those there here ' +
    'so not no all any every one some very just than then too can will would should could about into over ' +
    "who what why how when where which 's s t don isn aren"
  ).split(' '),
);

export interface TemplateFile {
  path: string;
  frames: string[];
  /** Words of the file's group fillers (every string value inside `groups`). */
  groupWords: string[];
}

/** Template files under `dir`: JSON with a top-level `frames` or `templates` string array. */
export function findTemplateFiles(dir = join(REPO_ROOT, 'training')): TemplateFile[] {
  const out: TemplateFile[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.json')) {
        let json: unknown;
        try {
          json = JSON.parse(readFileSync(p, 'utf8'));
        } catch {
          continue;
        }
        const t = parseTemplateJson(json);
        if (t) out.push({ path: relative(REPO_ROOT, p), ...t });
      }
    }
  };
  walk(dir);
  return out;
}

export function parseTemplateJson(json: unknown): Omit<TemplateFile, 'path'> | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  // A frame is any string outside `groups` that holds a {placeholder}, wherever the file keeps it
  // (`frames`, `templates`, `benign`, `toxic[].frame`, ...): a new template file cannot slip past by shape.
  // A whole sentence in a list (four words or more, no placeholder: contrast-training.json's homonyms)
  // is training text too, and is checked like a frame.
  const frames: string[] = [];
  const findFrames = (v: unknown, inList = false) => {
    if (typeof v === 'string') {
      if (/\{[^}]+\}/.test(v) || (inList && v.trim().split(/\s+/).length >= 4)) frames.push(v);
    } else if (Array.isArray(v)) v.forEach((x) => findFrames(x, true));
    else if (v && typeof v === 'object') Object.values(v).forEach((x) => findFrames(x));
  };
  for (const [k, v] of Object.entries(o)) if (k !== 'groups') findFrames(v);
  if (frames.length === 0) return null;
  const groupWords: string[] = [];
  const collect = (v: unknown) => {
    if (typeof v === 'string')
      groupWords.push(
        ...v
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean),
      );
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(o.groups);
  return { frames, groupWords };
}

/** Lower-cased word tokens with placeholders and group words replaced by one slot token. */
export function normaliseFrame(frame: string, groupWords: ReadonlySet<string>): string[] {
  const tokens = frame
    .replace(/\{[^}]*\}/g, ` ${SLOT} `)
    .toLowerCase()
    .split(/[^\p{L}\p{N}<>']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length > 0 && w !== 'a' && w !== 'an' && w !== 'the');
  const out: string[] = [];
  for (const t of tokens) {
    const v = t === SLOT || groupWords.has(t) ? SLOT : t;
    if (v === SLOT && out[out.length - 1] === SLOT) continue; // "{adj} {person}" is one slot
    out.push(v);
  }
  return out;
}

const contentWords = (tokens: readonly string[]) => tokens.filter((t) => t !== SLOT && !STOPWORDS.has(t));
/** Word trigrams (slot tokens kept) that contain at least one content word. */
export function contentTrigrams(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= tokens.length; i++) {
    const tri = tokens.slice(i, i + 3);
    if (tri.some((t) => t !== SLOT && !STOPWORDS.has(t))) out.add(tri.join(' '));
  }
  return out;
}
const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
};

export interface OverlapReport {
  /** The evaluation side: the suite file(s), relative to the repository. */
  suite: string;
  file: string;
  frames: number;
  sharedFrames: { suite: string; training: string; jaccard: number }[];
  sharedContentWords: string[];
  /** Share of the suite's distinct content words that also occur in the file's frames. */
  contentWordShare: number;
  sharedTrigrams: string[];
  /** Share of the suite's distinct content trigrams that also occur in the file's frames. */
  trigramShare: number;
}

export function measureOverlap(suite: SuiteFile, file: TemplateFile, suitePath = 'suite'): OverlapReport {
  const groupWords = new Set<string>(file.groupWords);
  for (const g of suite.groups) {
    for (const s of [g.plural, g.one, g.adj ?? '', g.person ?? '', g.noun ?? '', ...g.slurs.flat()])
      for (const w of s.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w) groupWords.add(w);
  }
  // Words that mark a group but also carry meaning in a frame stay content words.
  for (const w of ['people', 'person', 'a', 'an']) groupWords.delete(w);
  const suiteFrames = [...new Set(suiteTexts(suite))].map((f) => ({ f, n: normaliseFrame(f, groupWords) }));
  const trainFrames = [...new Set(file.frames)].map((f) => ({ f, n: normaliseFrame(f, groupWords) }));
  const sharedFrames: OverlapReport['sharedFrames'] = [];
  const trainTris = trainFrames.map((t) => contentTrigrams(t.n));
  for (const s of suiteFrames) {
    const st = contentTrigrams(s.n);
    trainFrames.forEach((t, k) => {
      const j = jaccard(st, trainTris[k]!);
      if (s.n.join(' ') === t.n.join(' ') || j >= NEAR_FRAME_JACCARD)
        sharedFrames.push({ suite: s.f, training: t.f, jaccard: Math.round(j * 1000) / 1000 });
    });
  }
  const suiteWords = new Set(suiteFrames.flatMap((s) => contentWords(s.n)));
  const trainWords = new Set(trainFrames.flatMap((t) => contentWords(t.n)));
  const sharedContentWords = [...suiteWords].filter((w) => trainWords.has(w)).sort();
  const suiteTris = new Set(suiteFrames.flatMap((s) => [...contentTrigrams(s.n)]));
  const allTrainTris = new Set(trainTris.flatMap((t) => [...t]));
  const sharedTrigrams = [...suiteTris].filter((t) => allTrainTris.has(t)).sort();
  return {
    suite: suitePath,
    file: file.path,
    frames: trainFrames.length,
    sharedFrames,
    sharedContentWords,
    contentWordShare: sharedContentWords.length / Math.max(1, suiteWords.size),
    sharedTrigrams,
    trigramShare: sharedTrigrams.length / Math.max(1, suiteTris.size),
  };
}

/** Every hand-written evaluation text of a suite file: frames, long-text endings and paragraphs. */
export function suiteTexts(suite: SuiteFile): string[] {
  return [...suite.categories.flatMap((c) => [...c.frames, ...(c.endings ?? [])]), ...(suite.paragraphs ?? [])];
}

/** Both suite files as one (the groups and fillers are the first file's in both). */
export function bothSuites(): SuiteFile {
  const v1 = readSuite();
  const v2 = readSuiteV2(undefined, v1);
  return { ...v1, categories: [...v1.categories, ...v2.categories], paragraphs: v2.paragraphs ?? [] };
}

export interface EvaluationSuite {
  /** The file(s), relative to the repository. */
  path: string;
  suite: SuiteFile;
}

/** Every evaluation suite the check covers: both functional suite files as one, then each verdict suite. */
export function evaluationSuites(): EvaluationSuite[] {
  return [
    { path: `${relative(REPO_ROOT, SUITE_PATH)} + ${relative(REPO_ROOT, SUITE_V2_PATH)}`, suite: bothSuites() },
    ...readVerdictSuites().map((v) => ({ path: relative(REPO_ROOT, v.path), suite: v.file })),
  ];
}

/** Each suite against each template file. */
export function overlapReports(suites: readonly EvaluationSuite[] = evaluationSuites(), files = findTemplateFiles()): OverlapReport[] {
  return suites.flatMap((s) => files.map((f) => measureOverlap(s.suite, f, s.path)));
}

/** A report the check fails on: a shared frame or a shared content trigram. */
export const sharesTemplate = (r: OverlapReport) => r.sharedFrames.length > 0 || r.sharedTrigrams.length > 0;

/** The second suite file against the first, the first taking the place of a template file. */
export function v2AgainstV1(): OverlapReport {
  const v1 = readSuite();
  return measureOverlap(
    readSuiteV2(undefined, v1),
    { path: relative(REPO_ROOT, SUITE_PATH), frames: suiteTexts(v1), groupWords: [] },
    relative(REPO_ROOT, SUITE_V2_PATH),
  );
}

/** The reported failures against each template file: printed, not failed on. */
export function reportedFailuresOverlap(files = findTemplateFiles()): OverlapReport[] {
  const suite: SuiteFile = {
    groups: [],
    fillers: { thing: [], item: [], who: [] },
    categories: [{ id: 'reported', expected: 'not_harmful', uses: 'none', frames: readReportedFailures().map((c) => c.text) }],
  };
  return files.map((f) => measureOverlap(suite, f, relative(REPO_ROOT, REPORTED_FAILURES_PATH)));
}

function printReport(r: OverlapReport): void {
  console.log(
    `${r.suite} vs ${r.file}: ${r.frames} frames; shared frames ${r.sharedFrames.length}; shared content words ${r.sharedContentWords.length} ` +
      `(${(100 * r.contentWordShare).toFixed(1)} % of the suite's); shared content trigrams ${r.sharedTrigrams.length} ` +
      `(${(100 * r.trigramShare).toFixed(1)} %)`,
  );
  for (const s of r.sharedFrames) console.log(`  SHARED FRAME: "${s.suite}" ~ "${s.training}" (trigram Jaccard ${s.jaccard})`);
  if (r.sharedTrigrams.length) console.log(`  shared trigrams: ${r.sharedTrigrams.join(' | ')}`);
}

const isMain = isScript(import.meta.url);
if (isMain) {
  const reports = [...overlapReports(), v2AgainstV1()];
  for (const r of reports) {
    printReport(r);
    console.log(`  shared content words: ${r.sharedContentWords.join(', ')}`);
  }
  console.log('Reported failures (not failed on):');
  for (const r of reportedFailuresOverlap()) if (sharesTemplate(r)) printReport(r);
  if (reports.some(sharesTemplate)) process.exit(1);
}
