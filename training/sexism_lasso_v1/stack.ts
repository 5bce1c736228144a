/**
 * The final stage of sexism_lasso_v1 (format 3): an L1 logistic regression over two columns, the
 * n-gram stage's logit and the toxicity encoder's `sexism` logit, fitted on the EDOS train slice
 * that neither of them trained on (`edosStackRow`), with C and the threshold chosen on EDOS dev.
 */
import { sigmoid } from '@/lib/ml/sigmoid';
import { fitLogisticRegression } from '@/training/ml/logistic-regression';
import { bestMacroF1Threshold } from '@/training/ml/metrics';
import { CsrBuilder } from '@/lib/ml/sparse';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';

export const ENCODER_LABEL = 'sexism';
/** Regularisation path of the two-column fit; the sparsest best on EDOS dev wins. */
const C_GRID = [0.01, 0.03, 0.1, 0.3, 1];

/** The served toxicity model, loaded once, scoring model inputs for their `ENCODER_LABEL` logit. */
export interface Encoder {
  /**
   * The logit for each model input (already preprocessed and lowercased; the encoder's tokenizer is
   * uncased, so serving's cased `clean` text gives the same ids).
   */
  logits(inputs: readonly string[]): Promise<number[]>;
  dispose(): Promise<void>;
}

export async function openEncoder(): Promise<Encoder> {
  const model = await loadToxicityModel({ intraOpThreads: 2, maxBatch: 32 });
  return {
    async logits(inputs) {
      const out: number[] = [];
      for (let s = 0; s < inputs.length; s += 256) {
        const part = inputs.slice(s, s + 256).map((t) => ({ original: t, visible: t, clean: t }));
        for (const d of await model.scoreDetailed(part)) {
          const z = d.auxiliary[ENCODER_LABEL];
          if (z === undefined) throw new Error(`the toxicity model has no "${ENCODER_LABEL}" label`);
          out.push(z);
        }
      }
      return out;
    },
    dispose: () => model.dispose(),
  };
}

export interface StackColumns {
  firstStage: readonly number[];
  encoder: readonly number[];
}

export interface StackFit {
  first_stage_weight: number;
  encoder_weight: number;
  bias: number;
  C: number;
  threshold: number;
  dev_macro_f1: number;
  path: { C: number; first_stage_weight: number; encoder_weight: number; dev_macro_f1: number }[];
}

function matrix(x: StackColumns) {
  const b = new CsrBuilder(2);
  for (let i = 0; i < x.firstStage.length; i++) b.pushRow([0, 1], [x.firstStage[i]!, x.encoder[i]!]);
  return b.build();
}

export function stackLogit(fit: Pick<StackFit, 'first_stage_weight' | 'encoder_weight' | 'bias'>, z: number, e: number): number {
  return fit.first_stage_weight * z + fit.encoder_weight * e + fit.bias;
}

export function fitStack(train: StackColumns, yTrain: ArrayLike<number>, dev: StackColumns, yDev: ArrayLike<number>): StackFit {
  const X = matrix(train);
  let best: StackFit | null = null;
  const path: StackFit['path'] = [];
  for (const C of C_GRID) {
    const fit = fitLogisticRegression(X, yTrain, { penalty: 'l1', C, classWeight: 'balanced', tol: 1e-6, maxIter: 200 });
    const w = { first_stage_weight: fit.weights[0]!, encoder_weight: fit.weights[1]!, bias: fit.bias };
    const p = dev.firstStage.map((z, i) => sigmoid(stackLogit(w, z, dev.encoder[i]!)));
    const choice = bestMacroF1Threshold(yDev, p);
    path.push({ C, first_stage_weight: w.first_stage_weight, encoder_weight: w.encoder_weight, dev_macro_f1: choice.macroF1 });
    if (best === null || choice.macroF1 > best.dev_macro_f1 + 1e-12) {
      best = { ...w, C, threshold: choice.threshold, dev_macro_f1: choice.macroF1, path };
    }
  }
  return best!;
}
