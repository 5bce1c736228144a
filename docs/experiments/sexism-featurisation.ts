/**
 * Featurisation experiments for sexism_lasso_v1 (dev + 5-fold CV on train; never test).
 *   nice npx tsx docs/experiments/sexism-featurisation.ts [variant ...]
 */
import { fitLogisticRegression, predictProba, type LogisticRegressionFit } from '@/training/ml/logistic-regression';
import { bestMacroF1Threshold, rocAuc } from '@/training/ml/metrics';
import { selectRows, toCsc, type CsrMatrix } from '@/lib/ml/sparse';
import { DEFAULT_TOKEN_PATTERN, TfidfUnion, type TfidfOptions } from '@/lib/ml/tfidf';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { edosModelInput, loadEdos } from '@/training/corpora/edos';

type Spec = { name: string; options: TfidfOptions }[];
const word = (o: Partial<TfidfOptions> = {}, tp?: string): { name: string; options: TfidfOptions } => ({
  name: 'word',
  options: {
    analyzer: { kind: 'word', ngramRange: [1, 2], ...(tp ? { tokenPattern: tp } : {}) },
    minDf: 2,
    sublinearTf: true,
    norm: 'l2_all_tf',
    ...o,
  },
});
const charwb = (lo = 2, hi = 5, o: Partial<TfidfOptions> = {}) => ({
  name: 'char',
  options: {
    analyzer: { kind: 'char_wb' as const, ngramRange: [lo, hi] as [number, number] },
    minDf: 2,
    sublinearTf: true,
    norm: 'l2_all_tf' as const,
    ...o,
  },
});
const BASE: Spec = [word(), charwb()];

const squash = (s: string) => s.replace(/(.)\1{2,}/gu, '$1$1');
const nohash = (s: string) => s.replace(/#(?=[\p{L}\p{N}_])/gu, '');
const noph = (s: string) =>
  s
    .replace(/\[url\]|@user/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const punctsplit = (s: string) =>
  s
    .replace(/([^\p{L}\p{N}\p{M}\s_'’])/gu, ' $1 ')
    .replace(/\s+/g, ' ')
    .trim();
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i', '*': '' };
const leet = (s: string) =>
  s.replace(/[\p{L}0-9@$!*]+/gu, (w) =>
    /\p{L}/u.test(w) && /[0-9@$!*]/.test(w) && /\p{L}[0-9@$!*]+\p{L}/u.test(w) ? w.replace(/[0-9@$!*]/g, (c) => LEET[c] ?? c) : w,
  );

interface Variant {
  spec: Spec;
  text?: (s: string) => string;
  /** multiplies the penalty factor per feature (after char factor) */
  nbGamma?: number;
  classWeight?: 'balanced' | { 0: number; 1: number };
  charFactors?: number[];
  Cs?: number[];
}
const EMOJI_TP = `${DEFAULT_TOKEN_PATTERN}|\\p{Extended_Pictographic}`;
const VARIANTS: Record<string, Variant> = {
  base: { spec: BASE },
  squash: { spec: BASE, text: squash },
  nohash: { spec: BASE, text: nohash },
  noph: { spec: BASE, text: noph },
  punctsplit: { spec: BASE, text: punctsplit },
  leet: { spec: BASE, text: leet },
  tok1: { spec: [word({}, '[\\p{L}\\p{N}\\p{M}_]+'), charwb()] },
  tokemoji: { spec: [word({}, EMOJI_TP), charwb()] },
  tokapos: { spec: [word({}, "[\\p{L}\\p{N}\\p{M}_]+(?:['’][\\p{L}]+)?"), charwb()] },
  maxdf: { spec: [word({ maxDfRatio: 0.5 }), charwb(2, 5, { maxDfRatio: 0.5 })] },
  nb25: { spec: BASE, nbGamma: 0.25 },
  nb50: { spec: BASE, nbGamma: 0.5 },
  cw2: { spec: BASE, classWeight: { 0: 0.75, 1: 1.5 } },
  cw4: { spec: BASE, classWeight: { 0: 0.6, 1: 2.4 } },
  cf: { spec: BASE, charFactors: [0.6, 0.4], Cs: [0.15, 0.2, 0.25, 0.3] },
  char36: { spec: [word(), charwb(3, 6)] },
  norm3: { spec: BASE, text: (s) => squash(leet(nohash(s))) },
  norm2: { spec: BASE, text: (s) => leet(nohash(s)) },
  norm2cw2: { spec: BASE, text: (s) => leet(nohash(s)), classWeight: { 0: 0.75, 1: 1.5 }, Cs: [0.2, 0.3, 0.4] },
};

const env = loadEdos(resolveDataDir([]));
const train = env.filter((e) => e.split === 'train');
const dev = env.filter((e) => e.split === 'dev');
const yTrain = Uint8Array.from(train.map((e) => e.label));
const yDev = Uint8Array.from(dev.map((e) => e.label));
const trainIn = train.map((e) => edosModelInput(e.text));
const devIn = dev.map((e) => edosModelInput(e.text));

// Fixed 5 folds, stratified by label, deterministic (row order within class, round-robin).
const folds = new Int32Array(train.length);
{
  let k0 = 0;
  let k1 = 0;
  for (let i = 0; i < train.length; i++) folds[i] = yTrain[i] ? k1++ % 5 : k0++ % 5;
}

/**
 * NB-SVM scaling as an L1 penalty factor: |r_j|^gamma with r the naive-Bayes log-count ratio of
 * binarised feature j (add-one smoothing), normalised per block so the median factor is 1.
 */
function nbFactors(X: CsrMatrix, y: Uint8Array, nWord: number, gamma: number): Float64Array {
  const d = X.nCols;
  const p = new Float64Array(d).fill(1);
  const q = new Float64Array(d).fill(1);
  for (let i = 0; i < X.nRows; i++)
    for (let t = X.indptr[i] as number; t < (X.indptr[i + 1] as number); t++) (y[i] ? p : q)[X.indices[t] as number]! += 1;
  let sp = 0;
  let sq = 0;
  for (let j = 0; j < d; j++) {
    sp += p[j]!;
    sq += q[j]!;
  }
  const nb = new Float64Array(d);
  for (let j = 0; j < d; j++) nb[j] = Math.abs(Math.log(p[j]! / sp / (q[j]! / sq)));
  for (const [a, b] of [
    [0, nWord],
    [nWord, d],
  ] as const) {
    const s = Array.from(nb.subarray(a, b)).sort((x, z) => x - z);
    const med = s[s.length >> 1]!;
    for (let j = a; j < b; j++) nb[j] = ((nb[j]! + 1e-3) / med) ** gamma;
  }
  return nb;
}

function run(name: string, v: Variant): void {
  const t0 = performance.now();
  const tx = v.text ?? ((s: string) => s);
  const trDocs = trainIn.map(tx);
  const dvDocs = devIn.map(tx);
  const u = TfidfUnion.fit(trDocs, v.spec);
  const X = u.transform(trDocs);
  const Xd = u.transform(dvDocs);
  const csc = toCsc(X);
  const nWord = u.offsets[1] as number;
  const nb = v.nbGamma ? nbFactors(X, yTrain, nWord, v.nbGamma) : null;
  const featS = (performance.now() - t0) / 1000;
  const cfs = v.charFactors ?? [0.5];
  const Cs = v.Cs ?? [0.15, 0.2, 0.3];
  const rows: string[] = [];
  let bestDev = 0;
  for (const cf of cfs) {
    const pf = new Float64Array(u.nFeatures);
    for (let j = 0; j < pf.length; j++) pf[j] = (j < nWord ? 1 : cf) / (nb ? nb[j]! : 1);
    let init: LogisticRegressionFit | undefined;
    for (const C of Cs) {
      const fit = fitLogisticRegression(X, yTrain, {
        penalty: 'l1',
        C,
        classWeight: v.classWeight ?? 'balanced',
        penaltyFactor: pf,
        tol: 1e-4,
        csc,
        init,
      });
      init = fit;
      const p = predictProba(Xd, fit);
      const ch = bestMacroF1Threshold(yDev, p);
      bestDev = Math.max(bestDev, ch.macroF1);
      rows.push(
        `cf ${cf} C ${C}: nz ${fit.nonZero} dev ${ch.macroF1.toFixed(4)} @${ch.threshold.toFixed(3)} auc ${rocAuc(yDev, p).toFixed(4)}`,
      );
    }
  }
  // 5-fold CV on train (vocabulary/idf from all of train), cf 0.5 (or first), C 0.2 and 0.3, pooled OOF threshold.
  const cvOut: string[] = [];
  let bestCv = 0;
  const cf = cfs[0]!;
  const pf = new Float64Array(u.nFeatures);
  for (let j = 0; j < pf.length; j++) pf[j] = (j < nWord ? 1 : cf) / (nb ? nb[j]! : 1);
  for (const C of [0.2, 0.3]) {
    const oof = new Float64Array(train.length);
    for (let k = 0; k < 5; k++) {
      const tr: number[] = [],
        te: number[] = [];
      for (let i = 0; i < train.length; i++) (folds[i] === k ? te : tr).push(i);
      const Xtr = selectRows(X, tr);
      const ytr = Uint8Array.from(tr.map((i) => yTrain[i]!));
      let pfk = pf;
      if (v.nbGamma) {
        // NB ratios from the training folds only, so the held-out fold's labels do not leak.
        const nbk = nbFactors(Xtr, ytr, nWord, v.nbGamma);
        pfk = new Float64Array(u.nFeatures);
        for (let j = 0; j < pfk.length; j++) pfk[j] = (j < nWord ? 1 : cf) / nbk[j]!;
      }
      const fit = fitLogisticRegression(Xtr, ytr, {
        penalty: 'l1',
        C,
        classWeight: v.classWeight ?? 'balanced',
        penaltyFactor: pfk,
        tol: 1e-4,
      });
      const p = predictProba(selectRows(X, te), fit);
      te.forEach((i, t) => (oof[i] = p[t]!));
    }
    const ch = bestMacroF1Threshold(yTrain, oof);
    bestCv = Math.max(bestCv, ch.macroF1);
    cvOut.push(`C ${C} cv ${ch.macroF1.toFixed(4)} auc ${rocAuc(yTrain, oof).toFixed(4)}`);
  }
  console.log(
    `== ${name}: features ${u.blocks.map((b) => b.vectorizer.nFeatures).join('+')} (feat ${featS.toFixed(0)}s, total ${((performance.now() - t0) / 1000).toFixed(0)}s) BEST dev ${bestDev.toFixed(4)} cv ${bestCv.toFixed(4)}`,
  );
  for (const r of rows) console.log(`   ${r}`);
  console.log(`   ${cvOut.join(' | ')}`);
}

const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const n of names.length ? names : Object.keys(VARIANTS)) {
  const v = VARIANTS[n];
  if (!v) throw new Error(`unknown variant ${n}`);
  run(n, v);
}
