import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import threats from '@/lib/moderation/lexicons/threats.json';
import { createRulesEngine } from './rules-engine';

const engine = createRulesEngine();
const threat = (text: string) => engine.evaluate(preprocess(text)).label.threat_detected;
const threatTerms = (text: string) =>
  engine
    .evaluate(preprocess(text))
    .matches.filter((m) => m.flag === 'threat_detected')
    .map((m) => m.term);

describe('threat_detected', () => {
  it('has at least 40 positives and 40 hard negatives in lib/moderation/lexicons/threats.json', () => {
    expect(threats.examples.positive.length).toBeGreaterThanOrEqual(40);
    expect(threats.examples.negative.length).toBeGreaterThanOrEqual(40);
  });

  it.each(threats.examples.positive)('flags %j as %s', (text, term) => {
    expect(threatTerms(text)).toContain(term);
  });

  it.each(threats.examples.negative)('does not flag %j', (text) => {
    expect(threat(text)).toBe(false);
  });

  it('spans the whole phrase in the visible text', () => {
    const text = 'ok.  I will   find you and kill you!!';
    const [m] = engine.evaluate(preprocess(text)).matches.filter((x) => x.flag === 'threat_detected');
    expect(text.slice(m!.start, m!.end)).toBe('I will   find you and kill you');
  });
});
