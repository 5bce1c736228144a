import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import selfHarm_ from '@/lib/moderation/lexicons/self-harm.json';
import { createRulesEngine } from './rules-engine';

const engine = createRulesEngine();
const selfHarm = (text: string) => engine.evaluate(preprocess(text)).label.self_harm_flag;
const selfHarmTerms = (text: string) =>
  engine
    .evaluate(preprocess(text))
    .matches.filter((m) => m.flag === 'self_harm_flag')
    .map((m) => m.term);

describe('self_harm_flag', () => {
  it('has at least 40 positives and 40 hard negatives in lib/moderation/lexicons/self-harm.json', () => {
    expect(selfHarm_.examples.positive.length).toBeGreaterThanOrEqual(40);
    expect(selfHarm_.examples.negative.length).toBeGreaterThanOrEqual(40);
  });

  it.each(selfHarm_.examples.positive)('flags %j as %s', (text, term) => {
    expect(selfHarmTerms(text)).toContain(term);
  });

  it.each(selfHarm_.examples.negative)('does not flag %j', (text) => {
    expect(selfHarm(text)).toBe(false);
  });

  it('keeps first-person intent apart from threats', () => {
    for (const text of ['I want to die', "I'm going to end it all", 'unalive myself']) {
      const { label } = engine.evaluate(preprocess(text));
      expect(label, text).toMatchObject({ self_harm_flag: true, threat_detected: false });
    }
  });
});
