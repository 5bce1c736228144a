/** The /api/v1 memory-bank paths of the OpenAPI document, generated from lib/contracts/persons.ts. */
import type { OpenAPIRegistry } from './openapi-registry';
import { z } from 'zod';
import {
  deleteEnvelopeSchema,
  deleteFaceEnvelopeSchema,
  faceListEnvelopeSchema,
  personEnvelopeSchema,
  personListEnvelopeSchema,
  recognizeEnvelopeSchema,
  updatePersonSchema,
} from './persons';
import { errorEnvelopeSchema } from './api-v1';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

const imageForm = (extra: Record<string, z.ZodType> = {}) => ({
  body: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: z.object({
          image: z.string().describe('JPEG or PNG file (decided from its bytes); at most FACE_MAX_IMAGE_BYTES.'),
          ...extra,
        }),
      },
    },
  },
});

export function registerPersonPaths(registry: OpenAPIRegistry): void {
  const person = registry.register('PersonEnvelope', personEnvelopeSchema);
  const list = registry.register('PersonListEnvelope', personListEnvelopeSchema);
  const recognize = registry.register('RecognizeEnvelope', recognizeEnvelopeSchema);
  const deleted = registry.register('DeletePersonEnvelope', deleteEnvelopeSchema);
  const error = registry.register('ErrorEnvelope', errorEnvelopeSchema);
  const faceList = registry.register('FaceListEnvelope', faceListEnvelopeSchema);
  const faceDeleted = registry.register('DeleteFaceEnvelope', deleteFaceEnvelopeSchema);
  const idParam = z.object({ person_id: z.uuid() });
  const faceParam = z.object({ person_id: z.uuid(), face_id: z.uuid() });

  const imageErrors = {
    400: json(
      error,
      'VALIDATION_ERROR (names the field), INVALID_IMAGE (not JPEG/PNG, truncated, too many pixels), NO_FACE_DETECTED, MULTIPLE_FACES, FACE_TOO_SMALL, LOW_QUALITY, INVALID_METADATA.',
    ),
    413: json(error, 'PAYLOAD_TOO_LARGE: image over FACE_MAX_IMAGE_BYTES.'),
    401: json(error, 'UNAUTHORIZED: API_KEYS is set and neither a valid bearer key nor a session cookie was sent.'),
    403: json(error, 'FORBIDDEN: no API_KEYS and the client is not loopback (unless ALLOW_ANONYMOUS), or a cross-site cookie request.'),
    415: json(error, 'UNSUPPORTED_MEDIA_TYPE: not multipart/form-data.'),
    429: json(error, 'RATE_LIMITED: over FACE_RATE_LIMIT_PER_MINUTE; see Retry-After and RateLimit-* headers.'),
    500: json(error, 'INTERNAL_ERROR.'),
    503: json(
      error,
      'DATABASE_UNAVAILABLE: the database cannot be reached; SERVICE_UNAVAILABLE: the face models are not loaded; SERVER_BUSY: every inference worker is busy and the queue is full. All with Retry-After.',
    ),
  };

  registry.registerPath({
    method: 'post',
    path: '/api/v1/register',
    summary: 'Register a person with a face photo',
    request: imageForm({
      name: z.string().describe('1 to 200 characters, trimmed.'),
      relationship: z.string().optional().describe('At most 100 characters.'),
      metadata: z.string().optional().describe('JSON object, at most 16 KB; returned as data.metadata.'),
      allow_duplicate: z.enum(['true', 'false']).optional(),
    }),
    responses: {
      200: json(person, 'The new person, embedding_count 1.'),
      ...imageErrors,
      409: json(
        error,
        'FACE_ALREADY_REGISTERED: the face matches a registered person; error.details names them (person_id, name, similarity).',
      ),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/persons/{person_id}/faces',
    summary: 'Add a face photo to a registered person',
    request: {
      params: idParam,
      ...imageForm({
        confirm_mismatch: z
          .enum(['true', 'false'])
          .optional()
          .describe(
            "`true` adds the face even when it is farther than FACE_MISMATCH_DISTANCE from all of the person's faces (recorded as mismatch_confirmed).",
          ),
      }),
    },
    responses: {
      200: json(person, 'The person, embedding_count incremented.'),
      ...imageErrors,
      404: json(error, 'PERSON_NOT_FOUND.'),
      409: json(
        error,
        'FACE_MISMATCH: the face is farther than FACE_MISMATCH_DISTANCE (default 0.58) from every face of the person; nothing is stored. error.details: person_id, name, distance, similarity. Resend with confirm_mismatch=true to add it anyway.',
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/persons/{person_id}/faces',
    summary:
      "A person's stored faces, without photos (photo_stored says whether one is stored), with their distances to the person's other faces",
    request: { params: idParam },
    responses: {
      200: json(faceList, 'Oldest first; outlier marks a face farther than FACE_MISMATCH_DISTANCE from all the others.'),
      404: json(error, 'PERSON_NOT_FOUND.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/persons/{person_id}/faces/{face_id}/image',
    summary: "The face's stored photo (only with STORE_FACE_IMAGES=true when it was added)",
    description: 'The photo bytes as uploaded, `Cache-Control: private, no-store`; same access and `faces:read` scope as the face listing.',
    request: { params: faceParam },
    responses: {
      200: {
        description: 'The photo (`photo_stored` in the face listing says whether one is stored).',
        content: { 'image/jpeg': { schema: z.string().describe('binary') }, 'image/png': { schema: z.string().describe('binary') } },
      },
      404: json(error, 'PERSON_NOT_FOUND, FACE_NOT_FOUND, or NOT_FOUND: no photo is stored for this face.'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/persons/{person_id}/faces/{face_id}',
    summary: 'Hard-delete one stored face (and any stored photo)',
    request: { params: faceParam },
    responses: {
      200: json(faceDeleted, 'Deleted; embedding_count is what the person has left.'),
      404: json(error, 'PERSON_NOT_FOUND, or FACE_NOT_FOUND: the person has no face with that id.'),
      409: json(error, 'LAST_FACE: the only face of the person is never deleted; add another first, or delete the person.'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/recognize',
    summary: 'Recognise every face in a photo, largest first',
    request: imageForm(),
    responses: { 200: json(recognize, 'One entry per face; unknown faces have person_id null and match false.'), ...imageErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/persons',
    summary: 'List registered persons, oldest first',
    request: { query: z.object({ limit: z.number().int().min(1).max(100).optional(), offset: z.number().int().min(0).optional() }) },
    responses: { 200: json(list, 'A page of persons and the total.'), 400: json(error, 'VALIDATION_ERROR.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/persons/{person_id}',
    summary: 'One person',
    request: { params: idParam },
    responses: { 200: json(person, 'The person.'), 404: json(error, 'PERSON_NOT_FOUND.') },
  });
  registry.registerPath({
    method: 'patch',
    path: '/api/v1/persons/{person_id}',
    summary: 'Change name, relationship or metadata (metadata is replaced)',
    request: { params: idParam, body: { required: true, content: { 'application/json': { schema: updatePersonSchema } } } },
    responses: {
      200: json(person, 'The updated person.'),
      400: json(error, 'VALIDATION_ERROR or INVALID_METADATA.'),
      404: json(error, 'PERSON_NOT_FOUND.'),
      415: json(error, 'UNSUPPORTED_MEDIA_TYPE: not application/json.'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/persons/{person_id}',
    summary: 'Hard-delete a person and every embedding and stored photo',
    request: { params: idParam },
    responses: { 200: json(deleted, 'Deleted.'), 404: json(error, 'PERSON_NOT_FOUND.') },
  });
}
