import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sigmoid } from '@/lib/ml/sigmoid';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { sexismModelInput } from '@/lib/moderation/sexism/sexism-model';
import { PARITY_FILE, type ParityFixture } from './parity';
import { KNOWN_FAILURE_CHECKS } from './dataset';
import { MODEL_DIR } from './model-dir';

const MODEL = join(MODEL_DIR, 'model.json');
const fixture = JSON.parse(readFileSync(join(MODEL_DIR, PARITY_FILE), 'utf8')) as ParityFixture;

describe('sexism_lasso_v1 parity: the served artifact scores as training did', () => {
  it('reproduces every training-time probability of the fixture', async () => {
    const model = await loadSexismModel(MODEL);
    expect(fixture.cases.length).toBeGreaterThanOrEqual(40);
    let worst = 0;
    for (const c of fixture.cases) worst = Math.max(worst, Math.abs(sigmoid(model.logit(c.input)) - c.p));
    expect(worst).toBeLessThanOrEqual(fixture.tolerance);
  });

  it('score() on raw text goes through the same model input as the fixture', async () => {
    const model = await loadSexismModel(MODEL);
    const text = KNOWN_FAILURE_CHECKS[0]!.text;
    expect(model.score([preprocess(text)])[0]!.score).toBe(sigmoid(model.logit(sexismModelInput(preprocess(text)))));
  });
});
