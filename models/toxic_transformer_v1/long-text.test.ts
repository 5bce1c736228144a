/**
 * The whole text is read (issue #22): a threat or an insult in the last sentence of a long, benign
 * comment is flagged, and the long benign comment alone is not. Runs the committed model through
 * the serving runtime (`loadToxicityModel`: windows of 128 tokens, each head's highest window).
 * The paragraphs were written for this test; no corpus text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { type LoadedToxicityModel, loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';

const PARAGRAPHS = [
  'We spent the long weekend repainting the back porch and replacing two rotten boards near the steps. The hardware store had the exact stain we used five years ago, which was a pleasant surprise, and the whole job took less time than we feared.',
  'My grandmother taught me to make bread without measuring anything, and I still cannot explain how much flour goes in. You add it until the dough stops sticking to your palm, then you leave it under a towel by the window and go for a walk.',
  'The library in our town extended its opening hours on Thursdays, so I have started going after work. They have a quiet room upstairs with good chairs and a view of the river, and the staff are happy to order books from other branches.',
  'Our team finally moved the build to the new servers last month. The first week was rough because the cache paths were different, but after we wrote down every step and rehearsed the switch twice, the nightly jobs have finished an hour earlier.',
  'If you visit the coast in early spring, bring a warm jacket. The wind off the water is colder than the forecast suggests, although the light in the late afternoon is beautiful and the cafés along the harbour are almost empty.',
  'The children built a model volcano for the science fair and spent most of Sunday arguing about the colour of the lava. In the end they used red and orange food colouring, and the baking soda eruption worked on the third try.',
];

/** About `chars` characters of benign prose, a different paragraph order for each seed. */
function benign(chars: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; out.join(' ').length < chars; i++) out.push(PARAGRAPHS[(i * (seed + 1) + seed) % PARAGRAPHS.length]!);
  return out.join(' ');
}

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
      expect(s![head]).toBeGreaterThanOrEqual(model.thresholds[head]);
      expect(s!.overall).toBeGreaterThanOrEqual(model.thresholds.overall);
    },
  );
});
