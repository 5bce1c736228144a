import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRAINING_DIR } from './model-dir';
import { type SelfHarmHeadSpec, selfHarmHeadSentences, selfHarmValidationSentences } from './prepare-self-harm-head';

const spec: SelfHarmHeadSpec = {
  intent: ['I am done with living.'],
  statements: ['The note is written.'],
  plans: ['I will take every pill'],
  when: ['tonight', 'at dawn'],
  encouragement: ['Nobody would miss you.'],
  encouragementFrames: ['You should {act}.'],
  encouragementActs: ['end it'],
  safe: ['This hike is killing me.', 'I am done with living.'],
  everydayPlans: ['I will take every vitamin'],
};

describe('self-harm head rows', () => {
  it('composes plans and everyday plans with the same times, labels intent and encouragement 1, the rest 0', () => {
    const rows = selfHarmHeadSentences(spec);
    const label = Object.fromEntries(rows.map((r) => [r.text, r.selfHarm]));
    expect(label).toMatchObject({
      'I will take every pill tonight.': 1,
      'I will take every pill at dawn.': 1,
      'You should end it.': 1,
      'Nobody would miss you.': 1,
      'I will take every vitamin tonight.': 0,
      'This hike is killing me.': 0,
    });
  });

  it('keeps a sentence once, with its first (self-harm) label', () => {
    const rows = selfHarmHeadSentences(spec).filter((r) => r.text === 'I am done with living.');
    expect(rows).toEqual([{ text: 'I am done with living.', selfHarm: 1 }]);
  });

  it('the committed file fills into hundreds of rows of both labels', () => {
    const file = JSON.parse(readFileSync(join(TRAINING_DIR, 'self-harm-head.json'), 'utf8')) as SelfHarmHeadSpec;
    const rows = selfHarmHeadSentences(file);
    expect(rows.filter((r) => r.selfHarm === 1).length).toBeGreaterThan(200);
    expect(rows.filter((r) => r.selfHarm === 0).length).toBeGreaterThan(200);
  });
});

describe('self-harm validation sentences', () => {
  it('fills each frame with every filler of its slot, capitalised where the slot is', () => {
    const rows = selfHarmValidationSentences({
      frames: ['{Chore} is the end of me.', 'I would die for {treat}.'],
      chores: ['ironing'],
      treats: ['tea', 'cake'],
      feelings: [],
      lines: ['My phone died.'],
    });
    expect(rows).toEqual(['Ironing is the end of me.', 'I would die for tea.', 'I would die for cake.', 'My phone died.']);
  });

  it('refuses a frame whose slot it does not know', () => {
    expect(() => selfHarmValidationSentences({ frames: ['{mood} again'], chores: [], treats: [], feelings: [], lines: [] })).toThrow(
      /without a known slot/,
    );
  });
});
