import { describe, expect, it } from 'vitest';
import { decisionSentence, marksFor, ruleWords, segmentsOf, sexismReading } from './plain-explanation';

describe('explanations in words', () => {
  it('gives character fragments to the words that hold them, never as "char: tra"', () => {
    const text = 'this trashy immigrant should go back';
    const r = sexismReading(text, [
      { feature: 'char: tra', weight: 0.6 },
      { feature: 'char:rash', weight: 0.2 },
      { feature: 'word:go back', weight: 0.3 },
      { feature: 'word:should', weight: -0.1 },
      { feature: 'encoder:sexism', weight: 0.9 },
      { feature: 'glove:mean', weight: -0.05 },
    ]);
    expect(r.towards.map((p) => [p.phrase, Number(p.weight.toFixed(2))])).toEqual([
      ['trashy', 0.8],
      ['go back', 0.3],
    ]);
    expect(r.towards[0]!.spans).toEqual([[5, 11]]);
    expect(r.towards[1]!.spans).toEqual([[29, 36]]);
    expect(r.against.map((p) => p.phrase)).toEqual(['should']);
    expect(r.whole).toEqual([
      "the toxicity model's reading of the whole text as sexism (towards)",
      'the overall wording of the text (against)',
    ]);
    expect(JSON.stringify(r)).not.toMatch(/char:|word:|encoder:/);
  });

  it('shares a fragment among the distinct words that contain it, and keeps the spelling of the text', () => {
    const r = sexismReading('Women and WOMEN, woman', [{ feature: 'char:wom', weight: 1 }]);
    expect(r.towards.map((p) => [p.phrase, p.weight, p.spans.length])).toEqual([
      ['Women', 0.5, 2],
      ['woman', 0.5, 1],
    ]);
  });

  it('says which model decided, in words', () => {
    expect(
      decisionSentence({ issue: 'identity_attack', model: 'toxic_transformer_v1', probability: 0.834, threshold: 0.5, risk: 0.8 }),
    ).toBe('The toxicity model rated this an attack on a group or identity at 83%; it flags from 50%.');
    expect(decisionSentence({ issue: 'slur', model: 'rules_v1', probability: null, threshold: null, risk: 0.9 })).toBe(
      'The word lists and patterns matched a slur; a match flags the text on its own.',
    );
    expect(decisionSentence({ issue: 'none', model: 'sexism_lasso_v1', probability: 0.2, threshold: 0.6, risk: 0.3 })).toMatch(
      /^Nothing reached a flagging line; the closest was the sexism model/,
    );
    expect(ruleWords('slur_detected')).toBe('slur');
    expect(ruleWords('self_harm_flag')).toBe('self-harm');
  });

  it('marks rule matches first and sexism words where no rule is, and cuts the text around them', () => {
    const text = 'you stupid women belong in the kitchen';
    const reading = sexismReading(text, [
      { feature: 'word:kitchen', weight: 1.2 },
      { feature: 'word:stupid', weight: 0.4 },
    ]);
    const marks = marksFor(text, [{ flag: 'profanity_flag', term: 'stupid', start: 4, end: 10 }], reading);
    expect(marks.map((m) => [m.kind, text.slice(m.start, m.end), m.why])).toEqual([
      ['rule', 'stupid', 'rule: profanity'],
      ['sexism', 'stupid', 'pushed the sexism model towards sexist'],
      ['sexism', 'kitchen', 'pushed the sexism model towards sexist'],
    ]);
    const segs = segmentsOf(text, marks);
    expect(segs.map((s) => [s.text, s.mark?.kind ?? ''])).toEqual([
      ['you ', ''],
      ['stupid', 'rule'],
      [' women belong in the ', ''],
      ['kitchen', 'sexism'],
    ]);
    expect(segs.map((s) => s.text).join('')).toBe(text);
  });

  it('drops rule spans outside the text', () => {
    expect(marksFor('short', [{ flag: 'threat_detected', term: 'x', start: 3, end: 40 }], sexismReading('short', []))).toEqual([]);
  });
});
