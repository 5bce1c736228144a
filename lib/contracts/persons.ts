/**
 * The /api/v1 memory-bank contract, written once: routes validate with it, contract tests parse
 * with it, and the OpenAPI document is generated from it (lib/contracts/persons-openapi.ts).
 * Field names follow ../shared/specs/face-registration-api.md; everything the spec leaves open
 * is recorded in docs/decisions/011-memory-bank-storage.md.
 */
import { z } from 'zod';
import './zod-config';

export const API_V1_ERROR_CODES = [
  'VALIDATION_ERROR',
  'INVALID_METADATA',
  'INVALID_IMAGE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NO_FACE_DETECTED',
  'MULTIPLE_FACES',
  'FACE_TOO_SMALL',
  'LOW_QUALITY',
  'FACE_ALREADY_REGISTERED',
  'FACE_MISMATCH',
  'LAST_FACE',
  'PERSON_NOT_FOUND',
  'FACE_NOT_FOUND',
  'NOT_FOUND',
  'UNDO_NOT_POSSIBLE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'SERVER_BUSY',
  'DATABASE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ApiV1ErrorCode = (typeof API_V1_ERROR_CODES)[number];

export const MAX_NAME_CHARS = 200;
export const MAX_RELATIONSHIP_CHARS = 100;
export const MAX_METADATA_BYTES = 16 * 1024;

/**
 * Machine-readable facts behind a 409 on the memory bank, so a page can name the person and
 * offer the next step without parsing `message` (docs/decisions/061-face-listing-and-conflict-details.md).
 */
export const apiErrorDetailsSchema = z.object({
  person_id: z.uuid().describe('FACE_ALREADY_REGISTERED: the person the face matches; FACE_MISMATCH, LAST_FACE: the person addressed.'),
  name: z.string(),
  similarity: z.number().min(0).max(1).optional().describe('To the nearest stored face of that person (1 - distance, clipped).'),
  distance: z.number().min(0).optional().describe('Euclidean distance to the nearest stored face of that person.'),
});
export type ApiErrorDetails = z.infer<typeof apiErrorDetailsSchema>;

export const apiErrorSchema = z.object({
  code: z.enum(API_V1_ERROR_CODES),
  message: z.string(),
  details: apiErrorDetailsSchema.optional().describe('Only on FACE_ALREADY_REGISTERED, FACE_MISMATCH and LAST_FACE.'),
});

/** `{success, data, error}` around `data`. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.union([
    z.object({ success: z.literal(true), data, error: z.null() }),
    z.object({ success: z.literal(false), data: z.null(), error: apiErrorSchema }),
  ]);
}
export const errorEnvelopeSchema = z.object({ success: z.literal(false), data: z.null(), error: apiErrorSchema });

export const metadataSchema = z
  .record(z.string(), z.unknown())
  .describe(`Free JSON object, at most ${MAX_METADATA_BYTES} bytes serialised; returned as sent.`);

/**
 * What PostgreSQL text and jsonb cannot hold: U+0000, and unpaired UTF-16 surrogates (valid in
 * JSON, not encodable as UTF-8). Refused as a validation error, not a 500 from the database
 * (issue 13, finding 6).
 */
export const isStorableText = (s: string) => !s.includes('\u0000') && s.isWellFormed();
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL (U+0000) characters or unpaired surrogates';

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
    .describe('`true` adds the face even when it is farther than FACE_MISMATCH_DISTANCE from all of the person\'s faces.'),
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
  quality: z.number().min(0).max(1).describe("Detector confidence of the face when it was added."),
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
});
export const faceListSchema = z.object({
  person_id: z.uuid(),
  name: z.string(),
  mismatch_distance: z.number().describe('The FACE_MISMATCH_DISTANCE the server applies.'),
  faces: z.array(storedFaceSchema).describe('Oldest first. No photos: only what was measured.'),
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
