/**
 * The /api/v1 memory-bank contract, written once: routes validate with it, contract tests parse
 * with it, and the OpenAPI document is generated from it (lib/contracts/persons-openapi.ts).
 * Field names follow ../shared/specs/face-registration-api.md; everything the spec leaves open
 * is recorded in docs/decisions/011-memory-bank-storage.md.
 */
import { z } from 'zod';
import { envelopeSchema } from './api-v1';
import './zod-config';

export const MAX_NAME_CHARS = 200;
export const MAX_RELATIONSHIP_CHARS = 100;
export const MAX_METADATA_BYTES = 16 * 1024;

/**
 * What PostgreSQL text and jsonb cannot hold: U+0000, and unpaired UTF-16 surrogates (valid in
 * JSON, not encodable as UTF-8). Refused as a validation error, not a 500 from the database.
 */
export const isStorableText = (s: string) => !s.includes('\u0000') && s.isWellFormed();
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL (U+0000) characters or unpaired surrogates';

/** Deeper metadata is refused: beyond it JSON.stringify's recursion (and jsonb's) is at risk. */
export const MAX_METADATA_DEPTH = 32;
export const METADATA_TOO_LARGE_MESSAGE = `must be at most ${MAX_METADATA_BYTES} bytes of JSON`;

/**
 * What jsonb would refuse with a 500 (found by tests/contract/fuzz.test.ts): unstorable text in a
 * key or string, or nesting deeper than MAX_METADATA_DEPTH. Walked iteratively so a deep
 * document cannot overflow the stack here, and before anything serialises it.
 */
export function metadataProblem(root: unknown): string | undefined {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return UNSTORABLE_TEXT_MESSAGE;
    } else if (value !== null && typeof value === 'object') {
      if (depth > MAX_METADATA_DEPTH) return `must not be nested more than ${MAX_METADATA_DEPTH} levels deep`;
      for (const [k, v] of Object.entries(value)) {
        if (!isStorableText(k)) return UNSTORABLE_TEXT_MESSAGE;
        stack.push([v, depth + 1]);
      }
    }
  }
  return undefined;
}

/**
 * Every rule of `metadata`, in the order they are answered: a JSON object, storable text and
 * bounded depth, then at most MAX_METADATA_BYTES serialised. The routes answer any issue here
 * as INVALID_METADATA (lib/handlers/person-requests.ts).
 */
export const metadataSchema = z
  .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
  .superRefine((value, ctx) => {
    const problem =
      metadataProblem(value) ??
      (new TextEncoder().encode(JSON.stringify(value)).length > MAX_METADATA_BYTES ? METADATA_TOO_LARGE_MESSAGE : undefined);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(`Free JSON object, at most ${MAX_METADATA_BYTES} bytes serialised; returned as sent.`);

export const nameSchema = z
  .string()
  .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_NAME_CHARS, `must be at most ${MAX_NAME_CHARS} characters`)
  .describe(`Person's name, trimmed, 1 to ${MAX_NAME_CHARS} characters.`);
export const relationshipSchema = z
  .string()
  .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
  .trim()
  .max(MAX_RELATIONSHIP_CHARS, `must be at most ${MAX_RELATIONSHIP_CHARS} characters`)
  .describe(`Relationship to the user, at most ${MAX_RELATIONSHIP_CHARS} characters; empty when not sent.`);

export const personSchema = z.object({
  person_id: z.uuid(),
  name: z.string(),
  relationship: z.string(),
  embedding_count: z.number().int().min(0),
  created_at: z.iso.datetime().describe('ISO 8601 UTC.'),
  metadata: metadataSchema,
});
export type Person = z.infer<typeof personSchema>;

/** Multipart text fields of POST /api/v1/register (the image travels as the `image` file part). */
export const registerFieldsSchema = z.object({
  name: nameSchema,
  relationship: relationshipSchema.default(''),
  allow_duplicate: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('`true` registers even when the face already matches a registered person.'),
});

/** Multipart text fields of POST /api/v1/persons/{id}/faces. */
export const addFaceFieldsSchema = z.object({
  confirm_mismatch: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe("`true` adds the face even when it is farther than FACE_MISMATCH_DISTANCE from all of the person's faces."),
});

export const updatePersonSchema = z
  .object({
    name: nameSchema.optional(),
    relationship: relationshipSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .strict();
export type UpdatePersonRequest = z.infer<typeof updatePersonSchema>;

export const listPersonsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

export const personListSchema = z.object({
  persons: z.array(personSchema),
  total: z.number().int().min(0),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const boxSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(0),
  height: z.number().int().min(0),
});

export const recognizedFaceSchema = z.object({
  box: boxSchema.describe('Face box in pixels of the image as displayed (after EXIF rotation).'),
  person_id: z.uuid().nullable(),
  name: z.string().nullable(),
  relationship: z.string().nullable(),
  similarity: z.number().min(0).max(1).describe('1 - Euclidean distance to the nearest stored face, clipped to [0,1].'),
  match: z.boolean().describe('similarity >= FACE_MATCH_THRESHOLD.'),
});
export const recognizeResultSchema = z.object({ faces: z.array(recognizedFaceSchema) });
export type RecognizeResult = z.infer<typeof recognizeResultSchema>;

export const storedFaceSchema = z.object({
  face_id: z.uuid(),
  created_at: z.iso.datetime().describe('ISO 8601 UTC.'),
  quality: z.number().min(0).max(1).describe('Detector confidence of the face when it was added.'),
  face_size_px: z.number().int().min(0).describe('Shorter side of the face box in the photo, pixels.'),
  model_version: z.string(),
  nearest_distance: z
    .number()
    .min(0)
    .nullable()
    .describe("Euclidean distance to the closest of the person's other faces (same model); null when it is the only one."),
  mean_distance: z.number().min(0).nullable().describe("Mean distance to the person's other faces; null when it is the only one."),
  outlier: z.boolean().describe('nearest_distance > FACE_MISMATCH_DISTANCE: this face looks like someone else.'),
  mismatch_confirmed: z.boolean().describe('Added with confirm_mismatch=true over a FACE_MISMATCH refusal.'),
  photo_stored: z
    .boolean()
    .describe('The photo is stored (STORE_FACE_IMAGES=true when it was added): GET …/faces/{face_id}/image answers it.'),
});
export const faceListSchema = z.object({
  person_id: z.uuid(),
  name: z.string(),
  mismatch_distance: z.number().describe('The FACE_MISMATCH_DISTANCE the server applies.'),
  faces: z.array(storedFaceSchema).describe('Oldest first. No photos inline: only what was measured, and whether a photo is stored.'),
});
export type FaceList = z.infer<typeof faceListSchema>;
export const deleteFaceResultSchema = z.object({
  person_id: z.uuid(),
  face_id: z.uuid(),
  deleted: z.literal(true),
  embedding_count: z.number().int().min(1).describe('Faces the person has left.'),
});

export const deleteResultSchema = z.object({ person_id: z.uuid(), deleted: z.literal(true), embeddings_deleted: z.number().int() });

export const personEnvelopeSchema = envelopeSchema(personSchema);
export const personListEnvelopeSchema = envelopeSchema(personListSchema);
export const recognizeEnvelopeSchema = envelopeSchema(recognizeResultSchema);
export const deleteEnvelopeSchema = envelopeSchema(deleteResultSchema);
export const faceListEnvelopeSchema = envelopeSchema(faceListSchema);
export const deleteFaceEnvelopeSchema = envelopeSchema(deleteFaceResultSchema);
