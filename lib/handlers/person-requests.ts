/**
 * Request handlers of the /api/v1 memory bank: parse and validate the request, call one domain
 * function, return its data (apiV1Route wraps it in the envelope). Validation failures name the
 * field: `Field 'name': must not be empty`.
 */
import {
  MAX_METADATA_BYTES,
  METADATA_TOO_LARGE_MESSAGE,
  addFaceFieldsSchema,
  listPersonsQuerySchema,
  metadataSchema,
  registerFieldsSchema,
  updatePersonSchema,
} from '@/lib/contracts/persons';
import { faceErrors } from '@/lib/errors/domain-error';
import { ApiV1Error, apiV1Errors } from '@/lib/http/api-v1-error';
import { apiV1ValidationError } from '@/lib/http/zod-issue-to-api-v1';
import { readApiV1Json } from '@/lib/http/read-api-v1-json';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { readMultipart, type MultipartForm } from '@/lib/http/read-multipart';
import { env } from '@/lib/env';
import { addFace } from '@/lib/faces/add-face';
import { deleteFace } from '@/lib/faces/delete-face';
import { getFaceImage } from '@/lib/faces/get-face-image';
import { listFaces } from '@/lib/faces/list-faces';
import { deletePerson } from '@/lib/faces/delete-person';
import { getPerson } from '@/lib/faces/get-person';
import { listPersons } from '@/lib/faces/list-persons';
import { recognizeFaces } from '@/lib/faces/recognize-faces';
import { registerPerson } from '@/lib/faces/register-person';
import { updatePerson } from '@/lib/faces/update-person';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_JSON_BODY_BYTES = 64 * 1024;

const invalidMetadata = (problem: string) => new ApiV1Error('INVALID_METADATA', `Field 'metadata': ${problem}.`);

/** The multipart `metadata` field: JSON text, checked by metadataSchema (the same rules as PATCH). */
export function parseMetadata(raw: string | undefined, truncated: boolean): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') return {};
  // The text as sent is bounded too: the field is cut at MAX_METADATA_BYTES + 1 while streaming.
  if (truncated || Buffer.byteLength(raw, 'utf8') > MAX_METADATA_BYTES) throw invalidMetadata(METADATA_TOO_LARGE_MESSAGE);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidMetadata('must be valid JSON');
  }
  const checked = metadataSchema.safeParse(value);
  if (!checked.success) throw invalidMetadata(checked.error.issues[0]!.message);
  // The parsed value, not zod's copy: a record copy drops an own `__proto__` key, which jsonb keeps.
  return value as Record<string, unknown>;
}

async function readImageForm(ctx: ApiV1Context): Promise<{ form: MultipartForm; image: Buffer }> {
  const form = await readMultipart(ctx.request, {
    maxFileBytes: env().FACE_MAX_IMAGE_BYTES,
    maxFieldBytes: MAX_METADATA_BYTES + 1,
    fileFields: ['image'],
  });
  const image = form.files.get('image');
  if (!image) {
    if (form.fields.has('image')) throw apiV1Errors.validation('image', 'must be a file part, not a text field');
    throw apiV1Errors.validation('image', 'required');
  }
  if (image.bytes.length === 0) throw faceErrors.invalidImage('the file is empty');
  return { form, image: image.bytes };
}

function personId(ctx: ApiV1Context): string {
  const id = ctx.params.person_id ?? '';
  if (!UUID.test(id)) throw faceErrors.personNotFound(id);
  return id.toLowerCase();
}

export async function registerRequest(ctx: ApiV1Context) {
  const { form, image } = await readImageForm(ctx);
  for (const f of ['name', 'relationship'] as const) {
    if (form.truncatedFields.has(f)) throw apiV1Errors.validation(f, 'too long');
  }
  const fields = registerFieldsSchema.safeParse(Object.fromEntries(form.fields));
  if (!fields.success) throw apiV1ValidationError(fields.error, 'name');
  const metadata = parseMetadata(form.fields.get('metadata'), form.truncatedFields.has('metadata'));
  return registerPerson(await ctx.services.memoryBank(), {
    name: fields.data.name,
    relationship: fields.data.relationship,
    metadata,
    allowDuplicate: fields.data.allow_duplicate,
    image,
  });
}

export async function addFaceRequest(ctx: ApiV1Context) {
  const id = personId(ctx);
  const { form, image } = await readImageForm(ctx);
  const fields = addFaceFieldsSchema.safeParse(Object.fromEntries(form.fields));
  if (!fields.success) throw apiV1ValidationError(fields.error, 'confirm_mismatch');
  return addFace(await ctx.services.memoryBank(), id, image, { confirmMismatch: fields.data.confirm_mismatch });
}

export async function listFacesRequest(ctx: ApiV1Context) {
  return listFaces(await ctx.services.memoryBank(), personId(ctx));
}

export async function deleteFaceRequest(ctx: ApiV1Context) {
  const id = personId(ctx);
  const faceId = ctx.params.face_id ?? '';
  if (!UUID.test(faceId)) throw faceErrors.faceNotFound(id, faceId);
  return deleteFace(await ctx.services.memoryBank(), id, faceId.toLowerCase());
}

/**
 * The stored photo as its own bytes. Never cached by the browser or a proxy (`private, no-store`):
 * it is a biometric photo behind the same access and `faces:read` scope as the face listing.
 */
export async function faceImageRequest(ctx: ApiV1Context) {
  const id = personId(ctx);
  const faceId = ctx.params.face_id ?? '';
  if (!UUID.test(faceId)) throw faceErrors.faceNotFound(id, faceId);
  const image = await getFaceImage(await ctx.services.memoryBank(), id, faceId.toLowerCase());
  if (!image) throw new ApiV1Error('NOT_FOUND', 'No photo is stored for this face: photos are kept only with STORE_FACE_IMAGES=true.');
  return new Response(new Uint8Array(image.bytes), {
    status: 200,
    headers: {
      'Content-Type': image.contentType,
      'Content-Length': String(image.bytes.length),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': 'inline',
    },
  });
}

export async function recognizeRequest(ctx: ApiV1Context) {
  const { image } = await readImageForm(ctx);
  return recognizeFaces(await ctx.services.memoryBank(), image);
}

export async function listPersonsRequest(ctx: ApiV1Context) {
  const url = new URL(ctx.request.url);
  const query = listPersonsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) throw apiV1ValidationError(query.error, 'limit');
  return listPersons(await ctx.services.memoryBank(), query.data.limit, query.data.offset);
}

export async function getPersonRequest(ctx: ApiV1Context) {
  return getPerson(await ctx.services.memoryBank(), personId(ctx));
}

export async function updatePersonRequest(ctx: ApiV1Context) {
  const id = personId(ctx);
  const body = await readApiV1Json(ctx.request, MAX_JSON_BODY_BYTES);
  const patch = updatePersonSchema.safeParse(body);
  if (!patch.success) {
    // A metadata problem answers INVALID_METADATA, ahead of any other field's, as on registration.
    const metadataIssue = patch.error.issues.find((i) => i.path[0] === 'metadata');
    if (metadataIssue) throw invalidMetadata(metadataIssue.message);
    throw apiV1ValidationError(patch.error, 'body');
  }
  return updatePerson(await ctx.services.memoryBank(), id, patch.data);
}

export async function deletePersonRequest(ctx: ApiV1Context) {
  return deletePerson(await ctx.services.memoryBank(), personId(ctx));
}
