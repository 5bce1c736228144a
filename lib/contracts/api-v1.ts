/**
 * What every /api/v1 answer shares, whatever the family (memory bank, reviews, session): the
 * `{success, data, error}` envelope and the error codes (docs/decisions/011-memory-bank-storage.md).
 * lib/http/api-v1-error.ts answers with it; the family contracts wrap their data in it.
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
  'METHOD_NOT_ALLOWED',
  'UNDO_NOT_POSSIBLE',
  'REOPEN_NOT_POSSIBLE',
  'REVIEW_CLAIMED',
  'POLICY_CONFLICT',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'INSUFFICIENT_SCOPE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'SERVER_BUSY',
  'DATABASE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ApiV1ErrorCode = (typeof API_V1_ERROR_CODES)[number];

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
