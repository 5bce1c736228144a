import { describe, expect, it } from 'vitest';
import slurContext from '@/lib/moderation/lexicons/slur-context.json';
import { preprocess } from '@/lib/moderation/preprocess';
import { createRulesEngine } from './rules-engine';

const engine = createRulesEngine();
const slurs = (text: string) => {
  const pre = preprocess(text);
  const { label, matches } = engine.evaluate(pre);
  const hits = matches.filter((m) => m.flag === 'slur_detected');
  return { label, hits, words: hits.map((m) => pre.visible.slice(m.start, m.end)), mentions: hits.map((m) => m.mention) };
};

// This file necessarily quotes slurs: use and mention cannot be tested without the words.
describe('slur use and mention', () => {
  it('has at least 15 mentions and 15 uses in lib/moderation/lexicons/slur-context.json', () => {
    expect(slurContext.examples.mention.length).toBeGreaterThanOrEqual(15);
    expect(slurContext.examples.use.length).toBeGreaterThanOrEqual(15);
  });

  it.each(slurContext.examples.mention)('reads %j as a mention (%s): the slur is reported, but alone', (text, why) => {
    const { label, mentions } = slurs(text);
    expect(label.slur_detected).toBe(true);
    expect(label.slur_mention_only).toBe(true);
    expect(mentions).toContain(why);
  });

  it.each(slurContext.examples.use)('reads %j as a use', (text) => {
    const { label, mentions } = slurs(text);
    expect(label.slur_detected).toBe(true);
    expect(label).not.toHaveProperty('slur_mention_only');
    expect(mentions).toContain(undefined);
  });

  it.each([
    ['"', '"'],
    ['“', '”'],
    ['„', '“'],
    ['«', '»'],
    ['»', '«'],
    ['‘', '’'],
    ["'", "'"],
    ['``', "''"],
    ["''", "''"],
    ['「', '」'],
  ])('reads every quotation mark alike: %s…%s mentions, and aimed at someone it uses', (open, close) => {
    expect(slurs(`Someone scrawled ${open}retard${close} on the whiteboard again`).mentions).toEqual(['quoted']);
    expect(slurs(`you ${open}retard${close}`).mentions).toEqual([undefined]);
    expect(slurs(`${open}retard${close}`).mentions).toEqual([undefined]);
  });

  it('keeps a text with one use and one mention a use', () => {
    const { label, mentions } = slurs('The word retard hurts people, but you are a faggot.');
    expect(mentions).toEqual(['named', undefined]);
    expect(label).not.toHaveProperty('slur_mention_only');
  });

  it('reads an apostrophe as no quotation mark', () => {
    expect(slurs("Don't be a retard, it's not hard").mentions).toEqual([undefined]);
  });

  it('extends a named list to the slurs joined to it ("words like X, Y and Z")', () => {
    expect(slurs('Words like faggot, dyke and tranny should stay out of this server.').mentions).toEqual(['named', 'named', 'named']);
  });

  it('drops ordinary senses of a slur word altogether (homonyms)', () => {
    for (const text of [
      'I smoked a fag outside the pub',
      'faggots and peas for tea',
      'walking along Offa’s Dyke',
      'salt can retard the growth of mould',
    ]) {
      expect(slurs(text).label.slur_detected, text).toBe(false);
    }
  });

  it('spans the slur in the visible text, through obfuscation and quotes', () => {
    const { words, mentions } = slurs('Calling someone a “f.a.g.g.o.t” is never okay.');
    expect(words).toEqual(['f.a.g.g.o.t']);
    expect(mentions).toEqual(['named']);
  });
});
