/**
 * How often the console's language warning fires on English: English rows of the training and
 * validation data (the toxicity corpora's train/val split, EDOS train and dev; never a test split
 * or a held-out suite), under the shipped rule and a sweep of other rules, by text length. Also
 * counts how many of a few non-English sentences, written for this check, each rule still warns on.
 *
 *   npx tsx scripts/measure-language-warning.ts [--data ../shared/data] [--every 10]
 */
import { francAll } from 'franc-min';
import { loadEdos } from '@/training/corpora/edos';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { readCorpora, OUT_OF_DOMAIN_CORPORA } from '@/training/corpora/toxicity-corpora';
import { splitOf } from '@/training/corpora/toxicity-split';
import { guessFromRanking, LANGUAGE_RULE, letterCount, type LanguageRule } from '@/lib/moderation/detect-language';
import { preprocess } from '@/lib/moderation/preprocess';

const FOREIGN = [
  'Las mujeres no deberían conducir, son demasiado emocionales.',
  'Frauen gehören in die Küche und sollten nicht arbeiten.',
  'Les femmes sont trop émotives pour diriger.',
  'Eu vou te encontrar e você vai se arrepender disso.',
  'Le donne non dovrebbero votare, non capiscono la politica.',
  'Vrouwen horen thuis te blijven en voor de kinderen te zorgen.',
  'Ti troverò e te ne pentirai, stupido.',
  'Eres un idiota y nadie te quiere.',
  'Du bist so dumm, geh nach Hause.',
  'Je vais te retrouver et tu vas le regretter, imbécile.',
  'Las mujeres son inferiores a los hombres y deberían quedarse en casa cuidando a los niños.',
  'Ich werde dich finden und dann wirst du es bereuen, du erbärmlicher Idiot.',
];

const argv = process.argv.slice(2);
const k = argv.indexOf('--every');
const every = k >= 0 ? Number(argv[k + 1]) : 10;
const dataDir = resolveDataDir(k >= 0 ? argv.filter((_, i) => i !== k && i !== k + 1) : argv);

const english: string[] = [];
let seen = 0;
for (const row of readCorpora(dataDir)) {
  if (OUT_OF_DOMAIN_CORPORA.has(row.corpus) || seen++ % every !== 0) continue;
  if (splitOf(preprocess(row.text).clean) !== 'test') english.push(row.text);
}
for (const e of loadEdos(dataDir)) if (e.split !== 'test' && seen++ % every === 0) english.push(e.text);

// franc ranks each text once; every rule is then arithmetic on that ranking.
const rank = (t: string) => ({ letters: letterCount(t), ranked: francAll(t, { minLength: 1 }) });
const rows = english.map(rank);
const foreign = FOREIGN.map(rank);
const BUCKETS: [number, number][] = [
  [0, 20],
  [20, 40],
  [40, 60],
  [60, 120],
  [120, Number.POSITIVE_INFINITY],
];

function measure(rule: LanguageRule) {
  const byBucket = BUCKETS.map(() => ({ n: 0, warned: 0 }));
  let warned = 0;
  for (const r of rows) {
    const b = byBucket[BUCKETS.findIndex(([lo, hi]) => r.letters >= lo && r.letters < hi)]!;
    b.n++;
    if (guessFromRanking(r.ranked, r.letters, rule).non_english) {
      b.warned++;
      warned++;
    }
  }
  const caught = foreign.filter((r) => guessFromRanking(r.ranked, r.letters, rule).non_english).length;
  return { warned, byBucket, caught };
}

const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(2)}%`);
const show = (lo: number, hi: number) => `${lo}-${hi === Number.POSITIVE_INFINITY ? '' : hi - 1}`;
console.log(
  `English rows: ${rows.length} (every ${every}th train/val row); by letters: ${BUCKETS.map(([lo, hi]) => show(lo, hi)).join(' | ')}`,
);
const old: LanguageRule = { minLetters: 20, englishMargin: 0.75, shortLetters: 0, shortMargin: 0.75 };
const rules: [string, LanguageRule][] = [
  ['shipped', LANGUAGE_RULE],
  ['one margin 0.75 from 20 letters', old],
];
for (const minLetters of [20, 40])
  for (const shortLetters of [40, 60])
    for (const shortMargin of [0.5, 0.55, 0.6, 0.65, 0.7]) rules.push(['', { minLetters, englishMargin: 0.75, shortLetters, shortMargin }]);
for (const [name, rule] of rules) {
  const m = measure(rule);
  const cells = m.byBucket.map((b) => `${pct(b.warned, b.n)} of ${b.n}`).join(' | ');
  console.log(
    `${name ? `${name}: ` : ''}min ${rule.minLetters} letters, margin ${rule.englishMargin} (${rule.shortMargin} below ${rule.shortLetters} letters): ` +
      `false warnings ${m.warned}/${rows.length} = ${pct(m.warned, rows.length)}; non-English warned ${m.caught}/${FOREIGN.length}; ${cells}`,
  );
}
