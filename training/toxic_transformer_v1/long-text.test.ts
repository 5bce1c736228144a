/**
 * The whole text is read (decision 135): a threat or an insult in the last sentence of a long, benign
 * comment is flagged, and the long benign comment alone is not. Runs the committed model through
 * the serving runtime (`loadToxicityModel`: windows of 128 tokens, each head's highest window).
 * The paragraphs were written for this test; no corpus text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { type LoadedToxicityModel, loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { benign, benignThread } from '@/tests/fixtures/long-benign-text';
import { flagsVerdict } from './verdict-flags';

const ENDINGS = [
  { text: 'And one more thing: I know where you live, and I am going to kill you tonight.', head: 'threat' as const },
  { text: 'Honestly, you are the most pathetic, worthless idiot I have ever had the misfortune to read.', head: 'insult' as const },
];

let model: LoadedToxicityModel;
beforeAll(async () => {
  model = await loadToxicityModel({ intraOpThreads: 2, maxBatch: 32 });
});
afterAll(async () => {
  await model?.dispose();
});

describe('toxic_transformer_v1 reads the whole text', () => {
  const lengths = [3000, 6000, 9000];

  it.each(lengths)('does not flag a benign text of about %i characters', async (chars) => {
    const [s] = await model.score([preprocess(benign(chars, chars % 5))]);
    for (const [head, score] of Object.entries(s!)) {
      expect({ head, flagged: score >= model.thresholds[head as keyof typeof s] }).toEqual({ head, flagged: false });
    }
  });

  it.each(lengths.flatMap((chars) => ENDINGS.map((e) => [chars, e.head, e.text] as const)))(
    'flags a text of about %i characters whose last sentence is a(n) %s',
    async (chars, head, ending) => {
      const [s] = await model.score([preprocess(`${benign(chars, chars % 5)} ${ending}`)]);
      // The head that names the harm flags it (the ensemble turns a flagged threat or insult head
      // into a harmful verdict whatever `overall` says).
      expect(s![head]).toBeGreaterThanOrEqual(model.thresholds[head]);
    },
  );
});

// Decision 222: a mild attack at the end of a thread shares its window with the comments before it and
// reads diluted there; its paragraph, read alone, keeps it flagged.
describe('toxic_transformer_v1 reads the paragraphs of a long text alone too', () => {
  const MILD = ['I think you are a liar.', 'Get your facts straight before you embarrass yourself again, genius.'];

  it.each([0, 1, 2].flatMap((seed) => MILD.map((ending) => [seed, ending] as const)))(
    'flags a thread of six benign paragraphs (seed %i) ending with "%s", and says where',
    async (seed, ending) => {
      const paragraphs = [...benignThread(6, seed), ending];
      const pre = preprocess(paragraphs.join('\n\n'));
      const [d] = await model.scoreDetailed([pre]);
      expect(d!.windows!.length).toBeGreaterThan(1);
      expect(flagsVerdict(d!.scores, model.thresholds)).toBe(true);
      const head = (['overall', 'insult', 'threat', 'identity_attack'] as const).find((h) => d!.scores[h] >= model.thresholds[h])!;
      // Where that head decided holds the ending: its paragraph, or the window around it when the windows
      // flag the thread already (then the paragraphs are not read).
      expect(pre.clean.slice(...d!.peaks![head]!)).toContain(ending);
    },
  );

  it('does not flag the thread without them', async () => {
    const [d] = await model.scoreDetailed([preprocess(benignThread(7, 0).join('\n\n'))]);
    expect(d!.paragraphs).toHaveLength(7);
    expect(flagsVerdict(d!.scores, model.thresholds)).toBe(false);
  });
});
