import { describe, expect, it } from 'vitest';
import { expandFrame, loadTemplateFile, trainingTemplates, validationTemplates } from './templates';

describe('training templates', () => {
  const file = loadTemplateFile();

  it('fills every slot, capitalising {Name} slots, and repeats exactly', () => {
    const out = expandFrame('{Group} like {thing}.', { group: ['women', 'girls'], thing: ['math'] }, 10);
    expect(out).toEqual(['Women like math.', 'Girls like math.']);
    expect(() => expandFrame('{nope}', { group: ['women'] }, 10)).toThrow(/no fillers/);
    expect(trainingTemplates(file)).toEqual(trainingTemplates(file));
  });

  it('caps each frame at max_per_frame with a seeded sample', () => {
    const a = expandFrame('{a} {b}', { a: ['1', '2', '3', '4'], b: ['x', 'y', 'z'] }, 5);
    expect(a).toHaveLength(5);
    expect(new Set(a).size).toBe(5);
    expect(expandFrame('{a} {b}', { a: ['1', '2', '3', '4'], b: ['x', 'y', 'z'] }, 5)).toEqual(a);
  });

  it('trains on negatives only, and validation frames and sentences never occur in training', () => {
    const train = trainingTemplates(file);
    expect(train.every((t) => t.label === 0)).toBe(true);
    const trainFrames = new Set(train.map((t) => t.frame));
    const trainTexts = new Set(train.map((t) => t.text.toLowerCase()));
    for (const v of validationTemplates(file)) {
      expect(trainFrames.has(v.frame)).toBe(false);
      expect(trainTexts.has(v.text.toLowerCase())).toBe(false);
    }
  });
});
