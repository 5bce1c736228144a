/**
 * The toxicity folder's lexical stack, checked without the corpora (so it runs in CI): the group word
 * list covers every group the identity templates fill, and in the committed stack no group word
 * carries weight, the file is the one config.json names (by hash) and was fitted on the folder's encoder.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLexicalStack, parseLexicalStack } from '@/lib/moderation/toxicity/lexical-stack';
import type { IdentityGroup } from './identity-templates';
import { GROUP_WORDS } from './lexical-stack-fit';
import { MODEL_DIR, TRAINING_DIR } from './model-dir';

const TEMPLATE_FILES = ['identity-augmentation.json', 'identity-validation.json', 'contrast-training.json', 'noun-form-validation.json'];
/**
 * Words of the template groups' names that are not identity terms of the list's kinds (race,
 * nationality, religion, gender, sexuality, disability): age, body, housing, class, family status,
 * and the generic words of multi-word names ("the mentally ill", "middle eastern", "down syndrome").
 */
const OUTSIDE_THE_LIST = new Set(
  'a an the folk old elderly teenage overweight homeless working class single down syndrome middle eastern mentally ill'.split(' '),
);

const config = JSON.parse(readFileSync(join(MODEL_DIR, 'config.json'), 'utf8')) as {
  vigil: { artifact: string; lexical_stack?: { file: string; artifact: string; heads: string[] } };
};
const named = config.vigil.lexical_stack;

describe('group words', () => {
  it('lists every word of every group the identity templates fill', () => {
    const missing = new Set<string>();
    for (const file of TEMPLATE_FILES) {
      const { groups } = JSON.parse(readFileSync(join(TRAINING_DIR, file), 'utf8')) as { groups: IdentityGroup[] };
      for (const g of groups) {
        for (const form of [g.adj, g.noun, g.nouns]) {
          for (const w of form?.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
            if (!GROUP_WORDS.includes(w) && !OUTSIDE_THE_LIST.has(w)) missing.add(w);
          }
        }
      }
    }
    expect([...missing]).toEqual([]);
  });
});

describe.runIf(named !== undefined)('the committed lexical stack', () => {
  const path = join(MODEL_DIR, named?.file ?? '');
  let text: string;
  let artifact: ReturnType<typeof parseLexicalStack>;
  let stack: ReturnType<typeof createLexicalStack>;
  beforeAll(() => {
    text = readFileSync(path, 'utf8');
    artifact = parseLexicalStack(JSON.parse(text), path);
    stack = createLexicalStack(artifact);
  });

  it('is the file config.json names, by hash, fitted on the encoder the folder holds, and stays small', () => {
    expect(createHash('sha256').update(text).digest('hex').slice(0, 12)).toBe(named!.artifact);
    expect(artifact.encoder_artifact).toBe(config.vigil.artifact);
    expect(named!.heads).toEqual(stack.heads);
    expect(statSync(path).size).toBeLessThan(1_000_000);
  });

  it('removes every group word of the list from what its n-gram models read', () => {
    expect(GROUP_WORDS.filter((w) => !artifact.input.removed_words.includes(w))).toEqual([]);
  });

  it('has no word n-gram holding a group word, nor a character n-gram that is a whole group word with its padding', () => {
    const groups = new Set(artifact.input.removed_words);
    for (const block of artifact.featurizer.blocks) {
      const kind = block.state.options.analyzer.kind;
      const bad = block.state.vocabulary.filter((term) =>
        // A char_wb n-gram is a whole word only when padded on both sides (" gay "); one padded at one
        // end (" gay", "men ") is the start or end of another word ("gayest", "omen"), which the input
        // keeps; the swap test below checks that no group word moves a logit.
        kind === 'word' ? term.split(' ').some((w) => groups.has(w)) : groups.has(term.trim()) && term === ` ${term.trim()} `,
      );
      expect({ block: block.name, bad }).toEqual({ block: block.name, bad: [] });
    }
  });

  it('gives every text the same n-gram logits whichever group word it names, or none', () => {
    const frames = ['those {w} people are disgusting idiots', 'shut up you {w} fucking moron', 'my {w} neighbours are lovely', '{w}'];
    for (const frame of frames) {
      const without = stack.lexicalLogits(frame.replace('{w}', ''));
      const differs = artifact.input.removed_words.filter((w) => {
        const got = stack.lexicalLogits(frame.replace('{w}', w.toUpperCase() === w ? w : `${w[0]!.toUpperCase()}${w.slice(1)}`));
        return JSON.stringify(got) !== JSON.stringify(without);
      });
      expect({ frame, differs }).toEqual({ frame, differs: [] });
    }
  });
});
