import { describe, expect, it } from 'vitest';
import { rocAuc } from './metrics';
import { fitTfidfLrBaseline } from './tfidf-lr-baseline';

const bad = ['you are a stupid idiot', 'what a stupid moron', 'idiot moron loser', 'shut up you stupid loser', 'such an idiot'];
const good = ['thank you for the help', 'have a lovely day', 'the meeting is at noon', 'thanks for the lovely dinner', 'see you at noon'];
const texts = [...bad, ...good, ...bad.map((t) => `${t} again`), ...good.map((t) => `${t} again`)];
const y = texts.map((_, i) => (i % 10 < 5 ? 1 : 0));

describe('fitTfidfLrBaseline', () => {
  it('separates a separable toy set and scores unseen texts per label', () => {
    // Label 1 is only annotated on the first half of the rows (masked elsewhere); label 2 has one class.
    const labels = texts.map((_, i) => [y[i]!, i < 10 ? y[i]! : undefined, 0]);
    const b = fitTfidfLrBaseline(texts, labels, { maxIter: 50 });
    expect(b.models[0]).not.toBeNull();
    expect(b.models[1]).not.toBeNull();
    expect(b.models[2]).toBeNull();
    const test = ['you stupid idiot', 'lovely dinner at noon', 'what a moron', 'thank you again'];
    const s = b.score(test);
    expect(
      rocAuc(
        [1, 0, 1, 0],
        s.map((r) => r[0]!),
      ),
    ).toBe(1);
    expect(s.every((r) => Number.isNaN(r[2]))).toBe(true);
  });

  it('rejects labels that do not match the texts', () => {
    expect(() => fitTfidfLrBaseline(['a', 'b'], [[1]])).toThrow(/2 texts but 1 label rows/);
  });
});
