import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { RULE_FLAGS, RULES_VERSION } from '@/lib/moderation/types';
import { createRulesEngine } from './index';

const engine = createRulesEngine();
const evaluate = (text: string) => engine.evaluate(preprocess(text));

describe('createRulesEngine', () => {
  it('reports its version', () => {
    expect(engine.version).toBe('rules_v1');
  });

  it('returns every flag, all false for a benign text, and no matches', () => {
    const { label, matches } = evaluate('Thanks, the meeting notes look good to me.');
    expect(Object.keys(label).sort()).toEqual([...RULE_FLAGS, 'model_version'].sort());
    expect(label).toEqual({ ...Object.fromEntries(RULE_FLAGS.map((f) => [f, false])), model_version: RULES_VERSION });
    expect(matches).toEqual([]);
  });

  it.each(['', '   ', '\u200B\u200B', '@user', '[url]', 'https://example.com'])('handles %j', (text) => {
    expect(Object.values(evaluate(text).label).filter((v) => v === true)).toEqual([]);
  });

  it('raises several flags at once, each backed by a match', () => {
    const { label, matches } = evaluate("SHUT UP YOU STUPID BITCH I'LL KILL YOU!!!!!");
    expect(label).toMatchObject({
      profanity_flag: true,
      threat_detected: true,
      caps_abuse: true,
      character_repetition: true,
      slur_detected: false,
      self_harm_flag: false,
    });
    for (const flag of RULE_FLAGS) expect(matches.some((m) => m.flag === flag)).toBe(label[flag]);
  });

  it('gives spans into pre.visible, sorted by position, through every kind of obfuscation', () => {
    const text = '  Hey @ss,\u200B  see https://x.io you f.\u200Bü.c.k  and sh1t…  I will k1ll you  ';
    const pre = preprocess(text);
    const { matches } = engine.evaluate(pre);
    expect(matches.map((m) => [m.flag, m.term, pre.visible.slice(m.start, m.end)])).toEqual([
      ['profanity_flag', 'ass', '@ss'],
      ['profanity_flag', 'fuck', 'f.ü.c.k'],
      ['profanity_flag', 'shit', 'sh1t'],
      ['threat_detected', 'harm-you', 'I will k1ll you'],
    ]);
    const starts = matches.map((m) => m.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('is pure: the same input gives the same output, whatever ran before', () => {
    const text = 'f u c k you, I will hurt you';
    const first = evaluate(text);
    evaluate('completely different text with shiiiit and KILL YOURSELF!!!!!');
    expect(evaluate(text)).toEqual(first);
  });

  it('stays within the browser-safe subset (no Node-only imports in the engine)', () => {
    const dir = __dirname;
    const sources = [
      ...readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => join(dir, f)),
      join(dir, '..', 'lexical-fold.ts'),
    ];
    for (const file of sources) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(/from ['"](node:|fs|path|crypto|os)['"/]/);
      expect(source, file).not.toMatch(/\bprocess\.|\brequire\(/);
    }
  });
});
