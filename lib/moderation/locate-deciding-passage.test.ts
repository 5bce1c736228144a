import { describe, expect, it } from 'vitest';
import type { DecisionExplanation } from './explain-decision';
import { decidingWindow, locateDecidingPassages, sentenceSpans } from './locate-deciding-passage';
import { preprocess } from './preprocess';
import type { ToxicityDetail, ToxicityModel, ToxicityScores } from './types';

const zero: ToxicityScores = { overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0 };
/** Rates a sentence as a threat when it says "kill", and records what it was asked to score. */
function fakeToxicity(seen: string[][] = []): ToxicityModel {
  return {
    version: 'toxic_transformer_v1',
    async score(texts) {
      seen.push(texts.map((t) => t.clean));
      return texts.map((t) => ({ ...zero, threat: /kill/.test(t.clean) ? 0.9 : 0.1, overall: 0.2 }));
    },
  };
}
const byModel = (issue: string, model = 'toxic_transformer_v1'): DecisionExplanation => ({
  issue,
  model,
  probability: 0.9,
  threshold: 0.5,
  risk: 0.8,
});
const BENIGN = 'The garden club met on Tuesday to plan the spring fair. ';

describe('sentenceSpans', () => {
  it('splits after sentence punctuation and at line breaks, trimmed', () => {
    const text = 'One. Two! "Three?" Four\nFive... six';
    expect(sentenceSpans(text).map(([s, e]) => text.slice(s, e))).toEqual(['One.', 'Two!', '"Three?"', 'Four', 'Five...', 'six']);
  });

  it('keeps decimals and abbreviations without a following space inside the sentence', () => {
    expect(sentenceSpans('It costs 3.50 today.')).toEqual([[0, 20]]);
  });
});

describe('locateDecidingPassages', () => {
  it('picks the sentence of the deciding window the model rates highest, scoring only that window', async () => {
    const text = `${BENIGN.repeat(20)}I will kill you tonight. ${BENIGN}`;
    const pre = preprocess(text);
    const windowStart = pre.clean.length - 200;
    const detail: ToxicityDetail = { scores: { ...zero, threat: 0.9 }, auxiliary: {}, peaks: { threat: [windowStart, pre.clean.length] } };
    const seen: string[][] = [];
    const [span] = await locateDecidingPassages(fakeToxicity(seen), [{ pre, detail, decision: byModel('threat'), rules: [] }]);
    expect(text.slice(span!.start, span!.end)).toBe('I will kill you tonight.');
    // Four sentences of the last 200 characters, not the twenty-one of the whole text.
    expect(seen[0]!.length).toBeLessThan(6);
  });

  it('answers nothing when sexism decided, or the text is one sentence, and does not run the model', async () => {
    const seen: string[][] = [];
    const two = preprocess('Women belong in the kitchen. Obviously.');
    const one = preprocess('I will kill you');
    const detail: ToxicityDetail = { scores: zero, auxiliary: {} };
    const out = await locateDecidingPassages(fakeToxicity(seen), [
      { pre: two, detail, decision: byModel('sexism', 'sexism_lasso_v1'), rules: [] },
      { pre: one, detail, decision: byModel('threat'), rules: [] },
      { pre: two, detail, decision: { ...byModel('none'), issue: 'none' }, rules: [] },
    ]);
    expect(out).toEqual([undefined, undefined, undefined]);
    expect(seen).toEqual([]);
  });

  it('gives a rule hit the sentence that holds its match', async () => {
    const text = `${BENIGN}I know where you live and I will hurt you. ${BENIGN}`;
    const pre = preprocess(text);
    const at = text.indexOf('I will hurt you');
    const [span] = await locateDecidingPassages(fakeToxicity(), [
      {
        pre,
        detail: { scores: zero, auxiliary: {} },
        decision: { issue: 'threat', model: 'rules_v1', probability: null, threshold: null, risk: 0.85 },
        rules: [{ flag: 'threat_detected', term: 'i will hurt you', start: at, end: at + 15 }],
      },
    ]);
    expect(text.slice(span!.start, span!.end)).toBe('I know where you live and I will hurt you.');
  });

  it('maps offsets back to the text as written', async () => {
    const text = 'Nice   weather.   I will k.i.l.l you.';
    const pre = preprocess(text);
    const [span] = await locateDecidingPassages(fakeToxicity(), [
      { pre, detail: { scores: zero, auxiliary: {} }, decision: byModel('threat'), rules: [] },
    ]);
    expect(text.slice(span!.start, span!.end)).toBe('I will k.i.l.l you.');
  });
});

describe('decidingWindow', () => {
  it('is the deciding head’s peak window, only when the toxicity model decided', () => {
    const pre = preprocess(`${BENIGN.repeat(3)}I will kill you.`);
    const detail: ToxicityDetail = { scores: zero, auxiliary: {}, peaks: { threat: [100, pre.clean.length], insult: [0, 80] } };
    expect(decidingWindow(pre, detail, byModel('threat'))).toEqual({ start: 100, end: pre.clean.length });
    expect(decidingWindow(pre, detail, byModel('sexism', 'sexism_lasso_v1'))).toBeUndefined();
    expect(decidingWindow(pre, detail, byModel('profanity'))).toBeUndefined();
    expect(decidingWindow(pre, { scores: zero, auxiliary: {} }, byModel('threat'))).toBeUndefined();
  });

  it('is the deciding rule’s first match when a rule decided a long text', () => {
    const pre = preprocess(`${BENIGN.repeat(3)}I will kill you.`);
    const rules = [
      { flag: 'caps_abuse' as const, term: 'x', start: 0, end: 3 },
      { flag: 'threat_detected' as const, term: 'i will kill you', start: 171, end: 186 },
    ];
    const rule = { issue: 'threat', model: 'rules_v1', probability: null, threshold: null, risk: 0.85 };
    const long: ToxicityDetail = { scores: zero, auxiliary: {}, peaks: { threat: [0, 50] } };
    expect(decidingWindow(pre, long, rule, rules)).toEqual({ start: 171, end: 186 });
    expect(decidingWindow(pre, { scores: zero, auxiliary: {} }, rule, rules)).toBeUndefined();
  });
});
