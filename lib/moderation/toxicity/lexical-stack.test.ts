import { describe, expect, it } from 'vitest';
import { sigmoid } from '@/lib/ml/sigmoid';
import { TOXICITY_HEADS, type ToxicityScores } from '../types';
import { createLexicalStack, lexicalInput, lexicalStackForFolder, parseLexicalStack } from './lexical-stack';
import { wordStackArtifact } from './lexical-stack.fixture';

/** A stack on insult only: word unigrams "idiot" (weight 3) and "nice" (-1), no norm, bias -1. */
const tinyStackArtifact = (overrides: Record<string, unknown> = {}) =>
  wordStackArtifact(
    ['idiot', 'nice'],
    { weights: [3, -1], bias: -1, encoder_weight: 0.5, lexical_weight: 2, stack_bias: 0.25 },
    ['gay', 'women'],
    overrides,
  );

const logits = (z: number): ToxicityScores => Object.fromEntries(TOXICITY_HEADS.map((h) => [h, z])) as ToxicityScores;

describe('lexicalInput', () => {
  it('lowercases and blanks every removed word, whatever its case or the punctuation around it', () => {
    const removed = new Set(['gay', 'women', 'black']);
    expect(lexicalInput("Gay women's rights, BLACK-owned", removed)).toBe("   's rights,  -owned");
    expect(lexicalInput('gayest blackboard', removed)).toBe('gayest blackboard');
  });
});

describe('createLexicalStack', () => {
  const stack = createLexicalStack(parseLexicalStack(tinyStackArtifact()));

  it('gives a stacked head sigmoid(encoder_weight × encoder logit + lexical_weight × n-gram logit + stack_bias)', () => {
    expect(stack.heads).toEqual(['insult']);
    expect(stack.lexicalLogits('You IDIOT, you idiot')).toEqual({ insult: 3 * 2 - 1 });
    const s = stack.scores(logits(1.5), 'You IDIOT, you idiot');
    expect(s.insult).toBe(sigmoid(0.5 * 1.5 + 2 * 5 + 0.25));
  });

  it("leaves every other head the encoder's own sigmoid", () => {
    const s = stack.scores(logits(-2), 'you idiot');
    for (const h of TOXICITY_HEADS.filter((x) => x !== 'insult')) expect(s[h]).toBe(sigmoid(-2));
  });

  it('scores a text the same whatever group word it names: removed words weigh nothing', () => {
    const base = stack.scores(logits(0), 'those  people are idiot');
    expect(stack.scores(logits(0), 'those gay people are idiot')).toEqual(base);
    expect(stack.scores(logits(0), 'those Women people are idiot')).toEqual(base);
  });
});

describe('parseLexicalStack', () => {
  it('refuses weights that do not match the vocabulary, and multi-word removed words, naming the key', () => {
    const heads = { insult: { weights: [3], bias: 0, encoder_weight: 1, lexical_weight: 1, stack_bias: 0 } };
    expect(() => parseLexicalStack(tinyStackArtifact({ heads }))).toThrow(/one weight per vocabulary entry/);
    const input = { field: 'clean', lowercase: true, removed_words: ['native american'] };
    expect(() => parseLexicalStack(tinyStackArtifact({ input }))).toThrow(
      /input\.removed_words\.0: removed_words are single lowercase words/,
    );
    expect(() => parseLexicalStack(tinyStackArtifact({ heads: {} }))).toThrow(/heads must name at least one head/);
  });
});

describe('lexicalStackForFolder', () => {
  it('refuses a stack fitted on another encoder than the folder serves', () => {
    expect(lexicalStackForFolder(tinyStackArtifact(), { artifact: 'abcdef012345' }, 'stack.json').heads).toEqual(['insult']);
    expect(() => lexicalStackForFolder(tinyStackArtifact(), { artifact: '0123456789ab' }, 'stack.json')).toThrow(
      /stack\.json was fitted on encoder abcdef012345, but the folder's encoder is 0123456789ab; run npm run train:toxicity-stack/,
    );
  });
});
