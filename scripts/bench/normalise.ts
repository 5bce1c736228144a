/**
 * `npm run bench:normalise`: the cost of `preprocess` (the shared normaliser every model reads) on
 * typical 200-character texts, plain and obfuscated, and per character on a long text. Each figure
 * is the median over --runs runs of --iterations calls each, after a warm-up (the vocabulary is
 * built on first use and reported apart). Target: < 0.1 ms for a typical 200-char text.
 */
import { performance } from 'node:perf_hooks';
import { vocabulary } from '@/lib/moderation/normalise/vocabulary';
import { preprocess } from '@/lib/moderation/preprocess';
import { VARIANTS } from '@/lib/moderation/normalise/obfuscation-variants';
import { median } from '../lib/stats';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = arg('runs', 7);
const ITERATIONS = arg('iterations', 20_000);

// Typical user texts of about 200 characters.
const TYPICAL = [
  'Thanks for the quick reply yesterday, the fix worked perfectly on my machine. I will test it again on the staging server tomorrow morning and let you know if anything else breaks before the release.',
  'Honestly this is the worst service I have ever used, the app crashes every time I open it and support never answers. Please sort it out or refund me, I have been waiting for more than three weeks now.',
  'Great photo! Where was it taken? We are planning a trip to the coast next summer with the kids and would love some tips on quiet beaches, cheap places to stay and good restaurants near the harbour.',
  'You are a complete idiot and everyone in this thread knows it. Stop posting your stupid opinions, nobody asked for them and nobody cares. Go away and take your pathetic friends with you, loser.',
];
const cases: [string, string[]][] = [
  ['typical 200-char text, plain', TYPICAL],
  ['typical, leetspeak', TYPICAL.map(VARIANTS.leetspeak!)],
  ['typical, emoji between words', TYPICAL.map(VARIANTS['emoji between words']!)],
  ['typical, HTML wrapping', TYPICAL.map(VARIANTS['HTML wrapping']!)],
  ['typical, stretched vowels x3', TYPICAL.map(VARIANTS['stretched vowels x3']!)],
  ['typical, dots between letters', TYPICAL.map(VARIANTS['dots between letters']!)],
];

const t0 = performance.now();
vocabulary();
console.log(`Vocabulary built once (first use): ${(performance.now() - t0).toFixed(1)} ms`);

console.log(`\n| Text | chars (mean) | median per text | runs x iterations |`);
console.log('|---|---|---|---|');
for (const [name, texts] of cases) {
  for (let i = 0; i < 2000; i++) preprocess(texts[i % texts.length]!);
  const perCall: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    for (let i = 0; i < ITERATIONS; i++) preprocess(texts[i % texts.length]!);
    perCall.push((performance.now() - start) / ITERATIONS);
  }
  const chars = Math.round(texts.reduce((n, t) => n + t.length, 0) / texts.length);
  console.log(`| ${name} | ${chars} | **${(median(perCall) * 1000).toFixed(1)} µs** | ${RUNS} x ${ITERATIONS} |`);
}

// Linear cost: a long text, per character.
const long = TYPICAL.join(' ').repeat(50);
const longRuns: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const start = performance.now();
  for (let i = 0; i < 20; i++) preprocess(long);
  longRuns.push((performance.now() - start) / 20);
}
console.log(
  `| ${long.length}-char text | ${long.length} | **${median(longRuns).toFixed(2)} ms** (${((median(longRuns) * 1e6) / long.length).toFixed(0)} ns/char) | ${RUNS} x 20 |`,
);
