/**
 * The JSON form of a fitted TF-IDF featuriser (`TfidfVectorizer.toJSON`), as a zod schema, so every
 * artifact that ships one (the sexism model, the toxicity lexical stack) validates it the same way in
 * Node and in a browser Worker.
 */
import { z } from 'zod';

const ngramRange = z.tuple([z.number().int().min(1), z.number().int().min(1)]).refine(([a, b]) => a <= b, 'ngramRange must be [min, max]');

const analyzerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('word'), ngramRange, tokenPattern: z.string().min(1) }),
  z.object({ kind: z.literal('char_wb'), ngramRange }),
  z.object({ kind: z.literal('char'), ngramRange }),
]);

/** A fitted `TfidfVectorizer` in its JSON form (`TfidfVectorizer.toJSON`). */
export const tfidfStateSchema = z
  .object({
    options: z.object({
      analyzer: analyzerSchema,
      minDf: z.number().int().min(1),
      maxDfRatio: z.number().gt(0).max(1),
      maxFeatures: z.number().int().positive().nullable(),
      sublinearTf: z.boolean(),
      smoothIdf: z.boolean(),
      norm: z.enum(['l2', 'l2_all_tf', 'none']),
    }),
    vocabulary: z.array(z.string().min(1)),
    idf: z.array(z.number().finite().positive()),
  })
  .refine((s) => s.vocabulary.length === s.idf.length, 'vocabulary and idf lengths differ');
