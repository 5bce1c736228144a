import { describe, expect, it } from 'vitest';
import { decisionSentence, marksFor, passageLayout, ruleWords, segmentsOf, sexismReading } from './plain-explanation';

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

  const decided = (issue: string, model: string, span?: { start: number; end: number }) => ({
    issue,
    model,
    probability: model === 'rules_v1' ? null : 0.9,
    threshold: model === 'rules_v1' ? null : 0.5,
    risk: 0.8,
    ...(span ? { span } : {}),
  });

  it('marks the sexism words when sexism decided, after the rule matches, and cuts the text around them', () => {
    const text = 'you stupid women belong in the kitchen';
    const marks = marksFor(text, {
      rules: [{ flag: 'profanity_flag', term: 'stupid', start: 4, end: 10 }],
      sexism: [
        { feature: 'word:kitchen', weight: 1.2 },
        { feature: 'word:stupid', weight: 0.4 },
      ],
      decision: decided('sexism', 'sexism_lasso_v1'),
    });
    expect(marks.map((m) => [m.kind, text.slice(m.start, m.end), m.rank])).toEqual([
      ['rule', 'stupid', 2],
      ['sexism', 'stupid', 1],
      ['sexism', 'kitchen', 0],
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

  it('marks no sexism words when sexism did not decide, and nothing on a likely-safe verdict', () => {
    const text = 'how to fix their bike';
    const e = { rules: [], sexism: [{ feature: 'word:their', weight: 0.3 }] };
    expect(marksFor(text, { ...e, decision: decided('insult', 'toxic_transformer_v1') })).toEqual([]);
    expect(marksFor(text, { ...e, decision: { ...decided('none', 'sexism_lasso_v1'), issue: 'none' } })).toEqual([]);
    expect(marksFor(text, e)).toEqual([]);
  });

  it('does not mark a slur that is only mentioned: it did not flag the text', () => {
    const text = 'The word retard hurts, and you idiot keep saying it';
    const marks = marksFor(text, {
      rules: [{ flag: 'slur_detected', term: 'retard', start: 9, end: 15, mention: 'named' }],
      sexism: [],
      decision: decided('insult', 'toxic_transformer_v1'),
    });
    expect(marks).toEqual([]);
  });

  it('marks a threat match before the sexism words when sexism decided, and leaves out weak words', () => {
    const text = 'Women are too emotional to lead and I will hurt you, why';
    const marks = marksFor(text, {
      rules: [{ flag: 'threat_detected', term: 'i will hurt you', start: 36, end: 51 }],
      sexism: [
        { feature: 'word:women', weight: 2 },
        { feature: 'word:emotional', weight: 1.5 },
        { feature: 'word:lead', weight: 1 },
        { feature: 'word:too', weight: 0.8 },
        { feature: 'word:will', weight: 0.3 },
        { feature: 'word:why', weight: 0.2 },
      ],
      decision: decided('sexism', 'sexism_lasso_v1'),
    });
    expect([...marks].sort((a, b) => a.rank - b.rank).map((m) => [m.kind, text.slice(m.start, m.end)])).toEqual([
      ['rule', 'I will hurt you'],
      ['sexism', 'Women'],
      ['sexism', 'emotional'],
      ['sexism', 'lead'],
      ['sexism', 'too'],
    ]);
  });

  it('marks at most five spans, one per word, the strongest first, however often a word repeats', () => {
    const text = 'the the the the women the kitchen the the cook the clean the';
    const sexism = ['the', 'women', 'kitchen', 'cook', 'clean', 'belong'].map((w, i) => ({ feature: `word:${w}`, weight: 2 - i * 0.1 }));
    const marks = marksFor(text, { rules: [], sexism, decision: decided('sexism', 'sexism_lasso_v1') });
    expect(marks).toHaveLength(5);
    expect(marks.filter((m) => text.slice(m.start, m.end) === 'the')).toHaveLength(1);
    expect([...marks].sort((a, b) => a.rank - b.rank).map((m) => text.slice(m.start, m.end))).toEqual([
      'the',
      'women',
      'kitchen',
      'cook',
      'clean',
    ]);
  });

  it('puts the deciding sentence first, keeps only rule matches that carry a risk, and drops those outside the text', () => {
    const text = 'Lovely day. I WILL hurt you. Bye.';
    const marks = marksFor(text, {
      rules: [
        { flag: 'caps_abuse', term: 'caps', start: 12, end: 18 },
        { flag: 'threat_detected', term: 'i will hurt you', start: 12, end: 27 },
        { flag: 'profanity_flag', term: 'x', start: 30, end: 90 },
      ],
      sexism: [{ feature: 'word:lovely', weight: 1 }],
      decision: decided('threat', 'toxic_transformer_v1', { start: 12, end: 28 }),
    });
    expect(marks.map((m) => [m.kind, text.slice(m.start, m.end), m.rank])).toEqual([
      ['passage', 'I WILL hurt you.', 0],
      ['rule', 'I WILL hurt you', 1],
    ]);
    const { before, passage, after } = passageLayout(text, marks);
    expect(before.map((s) => s.text)).toEqual(['Lovely day. ']);
    expect(passage?.inside.map((s) => [s.text, s.mark?.kind ?? ''])).toEqual([
      ['I WILL hurt you', 'rule'],
      ['.', ''],
    ]);
    expect(after.map((s) => s.text)).toEqual([' Bye.']);
  });
});
