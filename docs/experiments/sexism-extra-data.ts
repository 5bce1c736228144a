/**
 * Extra-data experiments for sexism_lasso_v1 (decision 080): which extra sources, their sample weights,
 * the template weight, GloVe sentence-vector pooling and an extra L1 penalty on identity-only
 * n-grams. Scored on EDOS dev (never test), plus the validation templates and the extra corpora's
 * hash slice for information. Conclusions: docs/decisions/080-sexism-extra-data-and-glove.md.
 *
 *   SOURCES=edos,template W_EXTRA=0.1 W_TPL=2 POOL=mean,max DENSEF=1 IDPF=1 MAXITER=100 CS=0.15,0.2,0.3 \
 *     npx tsx docs/experiments/sexism-extra-data.ts
 */
import { fitLogisticRegression, predictProba, type LogisticRegressionFit } from '@/training/ml/logistic-regression';
import { bestMacroF1Threshold, rocAuc, threshold as thr } from '@/training/ml/metrics';
import { toCsc } from '@/lib/ml/sparse';
import { TfidfUnion } from '@/lib/ml/tfidf';
import { SentenceVectors, type Pooling } from '@/lib/moderation/sexism/sentence-vectors';
import { loadGlove } from '@/training/glove';
import { loadSexismDataset, type Source } from '@/training/sexism_lasso_v1/dataset';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { TFIDF_BLOCKS, buildSentenceVectors, chooseGloveVocabulary, featureMatrix } from '@/training/sexism_lasso_v1/features';

const env = (k: string, d: string) => process.env[k] ?? d;
const sources = env('SOURCES', 'edos,cmsb,cmsb_rewrite,hateval,toxigen,convabuse,template').split(',');
const wExtra = Number(env('W_EXTRA', '1'));
const wTpl = Number(env('W_TPL', '1'));
const pooling = env('POOL', 'mean').split(',').filter(Boolean) as Pooling[];
const Cs = env('CS', '0.15,0.2,0.3').split(',').map(Number);
const charF = env('CHARF', '0.5').split(',').map(Number);
const denseF = env('DENSEF', '0.5').split(',').map(Number);

const t0 = performance.now();
const d = loadSexismDataset(resolveDataDir([]));
const keep = d.train.sources.map((s, i) => (sources.includes(s) ? i : -1)).filter((i) => i >= 0);
const tr = keep.map((i) => d.train.inputs[i] as string);
const y = Uint8Array.from(keep.map((i) => d.train.labels[i] as number));
const src = keep.map((i) => d.train.sources[i] as Source);
const sw = Float64Array.from(src, (s) => (s === 'edos' ? 1 : s === 'template' ? wTpl : wExtra));
const tfidf = TfidfUnion.fit(tr, TFIDF_BLOCKS);
let sv: SentenceVectors | null = null;
if (pooling.length > 0) {
  const glove = loadGlove();
  const rows = chooseGloveVocabulary(glove, tr, Number(env('TOPN', '20000')), 2);
  const st = buildSentenceVectors(glove, rows, pooling, tr);
  console.log(`glove vocab ${rows.length}, b64 ${(st.vectors_int8_b64.length / 1e6).toFixed(2)} MB`);
  sv = new SentenceVectors(st);
}
const X = featureMatrix(tfidf, sv, tr);
const Xd = featureMatrix(tfidf, sv, d.dev.inputs);
const Xt = featureMatrix(tfidf, sv, d.templateVal.inputs);
const Xe = featureMatrix(tfidf, sv, d.extraVal.inputs);
const csc = toCsc(X);
const nWord = tfidf.offsets[1] as number,
  nTf = tfidf.nFeatures;
console.log(`n=${tr.length} feats=${X.nCols} prep ${((performance.now() - t0) / 1000).toFixed(1)}s`);
const idpf = Number(env('IDPF', '1'));
const ID = new Set(
  'women woman womens girl girls female females lady ladies wife wives mother mothers mom moms sister sisters daughter daughters girlfriend gf she her hers herself feminist feminists feminism gal gals'.split(
    ' ',
  ),
);
const STOP = new Set(
  'a an the are is was were be been am i you we they he it this that these those of to in on at for and or but so as with my your our their his all most some many every any not no do does did have has had can will would should just very more than who what'.split(
    ' ',
  ),
);
const idWords = [...ID].map((w) => ` ${w} `);
function isIdentity(name: string): boolean {
  const [blk, term] = [name.slice(0, name.indexOf(':')), name.slice(name.indexOf(':') + 1)];
  if (blk === 'word') {
    const toks = term.split(' ');
    return toks.some((t) => ID.has(t)) && toks.every((t) => ID.has(t) || STOP.has(t));
  }
  if (term.length < 4) return false;
  return idWords.some((w) => w.includes(term));
}
const idMask = new Uint8Array(nTf);
let nId = 0;
if (idpf !== 1)
  for (let j = 0; j < nTf; j++)
    if (isIdentity(tfidf.featureName(j))) {
      idMask[j] = 1;
      nId++;
    }
console.log('identity features', nId);
for (const cf of charF)
  for (const df of denseF) {
    const pf = new Float64Array(X.nCols);
    for (let j = 0; j < pf.length; j++) pf[j] = (j < nWord ? 1 : j < nTf ? cf : df) * (j < nTf && idMask[j] ? idpf : 1);
    let init: LogisticRegressionFit | undefined;
    for (const C of Cs) {
      const t1 = performance.now();
      const fit = fitLogisticRegression(X, y, {
        penalty: 'l1',
        C,
        classWeight: 'balanced',
        sampleWeight: sw,
        penaltyFactor: pf,
        tol: 1e-4,
        csc,
        init,
        maxIter: Number(env('MAXITER', '100')),
      });
      init = fit;
      const p = predictProba(Xd, fit);
      const ch = bestMacroF1Threshold(d.dev.labels, p);
      const pt = predictProba(Xt, fit);
      const pe = predictProba(Xe, fit);
      const neu = d.templateVal.kinds.map((k, i) => (k === 'neutral' ? i : -1)).filter((i) => i >= 0);
      const sx = d.templateVal.kinds.map((k, i) => (k === 'sexist' ? i : -1)).filter((i) => i >= 0);
      const fr = (ix: number[]) => ix.filter((i) => (pt[i] as number) >= ch.threshold).length / ix.length;
      const pre = thr(pe, ch.threshold);
      let tp = 0,
        fp = 0,
        fn = 0;
      pe.forEach((_, i) => {
        const l = d.extraVal.labels[i];
        if (pre[i] && l) tp++;
        else if (pre[i]) fp++;
        else if (l) fn++;
      });
      let nDense = 0;
      for (let j = nTf; j < X.nCols; j++) if (fit.weights[j] !== 0) nDense++;
      console.log(
        `cf=${cf} df=${df} C=${C} nz=${fit.nonZero} dense=${nDense} devF1=${ch.macroF1.toFixed(4)} thr=${ch.threshold.toFixed(3)} auc=${rocAuc(d.dev.labels, p).toFixed(4)} tplNeutralFlag=${fr(neu).toFixed(3)} tplSexistFlag=${fr(sx).toFixed(3)} extraF1pos=${((2 * tp) / (2 * tp + fp + fn)).toFixed(3)} (${((performance.now() - t1) / 1000).toFixed(0)}s)`,
      );
    }
  }
