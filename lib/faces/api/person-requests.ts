/**
 * Request handlers of the /api/v1 memory bank: parse and validate the request, call one domain
 * function, return its data (apiV1Route wraps it in the envelope). Validation failures name the
 * field: `Field 'name': must not be empty`.
 */
import type { z } from 'zod';
import {
  MAX_METADATA_BYTES,
  addFaceFieldsSchema,
  UNSTORABLE_TEXT_MESSAGE,
  isStorableText,
  listPersonsQuerySchema,
  registerFieldsSchema,
  updatePersonSchema,
} from '@/lib/contracts/persons';
import { ApiV1Error, apiV1Errors, fieldProblem } from '@/lib/http/api-v1-error';
import { readApiV1Json } from '@/lib/http/read-api-v1-json';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { readMultipart, type MultipartForm } from '@/lib/http/read-multipart';
import { addFace } from '../add-face';
import { deleteFace } from '../delete-face';
import { listFaces } from '../list-faces';
import { deletePerson } from '../delete-person';
import { getPerson } from '../get-person';
import { listPersons } from '../list-persons';
import { recognizeFaces } from '../recognize-faces';
import { registerPerson } from '../register-person';
import { updatePerson } from '../update-person';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_JSON_BODY_BYTES = 64 * 1024;

function firstIssue(error: z.ZodError, fallbackField: string): ApiV1Error {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : fallbackField;
  return apiV1Errors.validation(field, issue ? fieldProblem(issue) : 'invalid');
}

export function parseMetadata(raw: string | undefined, truncated: boolean): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') return {};
  if (truncated || Buffer.byteLength(raw, 'utf8') > MAX_METADATA_BYTES) {
    throw new ApiV1Error(400, 'INVALID_METADATA', `Field 'metadata': must be at most ${MAX_METADATA_BYTES} bytes of JSON.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiV1Error(400, 'INVALID_METADATA', "Field 'metadata': must be valid JSON.");
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiV1Error(400, 'INVALID_METADATA', "Field 'metadata': must be a JSON object.");
  }
  const problem = metadataProblem(value);
  if (problem) throw new ApiV1Error(400, 'INVALID_METADATA', `Field 'metadata': ${problem}.`);
  return value as Record<string, unknown>;
}

/**
 * What jsonb would refuse with a 500 (found by tests/contract/fuzz.test.ts): a NUL character in
 * a key or string, or nesting deeper than MAX_METADATA_DEPTH (also what keeps JSON.stringify's
 * recursion safe). Walked iteratively so a deep document cannot overflow the stack here.
 */
export const MAX_METADATA_DEPTH = 32;
function metadataProblem(root: unknown): string | undefined {
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

async function readImageForm(ctx: ApiV1Context): Promise<{ form: MultipartForm; image: Buffer }> {
  const form = await readMultipart(ctx.request, {
    maxFileBytes: ctx.config.FACE_MAX_IMAGE_BYTES,
    maxFieldBytes: MAX_METADATA_BYTES + 1,
    fileFields: ['image'],
  });
  const image = form.files.get('image');
  if (!image) {
    if (form.fields.has('image')) throw apiV1Errors.validation('image', 'must be a file part, not a text field');
    throw apiV1Errors.validation('image', 'required');
  }
  if (image.bytes.length === 0) throw apiV1Errors.invalidImage('the file is empty');
  return { form, image: image.bytes };
}

function personId(ctx: ApiV1Context): string {
  const id = ctx.params.person_id ?? '';
  if (!UUID.test(id)) throw apiV1Errors.personNotFound(id);
  return id.toLowerCase();
}

export async function registerRequest(ctx: ApiV1Context) {
  const { form, image } = await readImageForm(ctx);
  for (const f of ['name', 'relationship'] as const) {
    if (form.truncatedFields.has(f)) throw apiV1Errors.validation(f, 'too long');
  }
  const fields = registerFieldsSchema.safeParse(Object.fromEntries(form.fields));
  if (!fields.success) throw firstIssue(fields.error, 'name');
  const metadata = parseMetadata(form.fields.get('metadata'), form.truncatedFields.has('metadata'));
  return registerPerson(await ctx.bank(), {
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
  if (!fields.success) throw firstIssue(fields.error, 'confirm_mismatch');
  return addFace(await ctx.bank(), id, image, { confirmMismatch: fields.data.confirm_mismatch });
}

export async function listFacesRequest(ctx: ApiV1Context) {
  return listFaces(await ctx.bank(), personId(ctx));
}

export async function deleteFaceRequest(ctx: ApiV1Context) {
  const id = personId(ctx);
  const faceId = ctx.params.face_id ?? '';
  if (!UUID.test(faceId)) throw apiV1Errors.faceNotFound(id, faceId);
  return deleteFace(await ctx.bank(), id, faceId.toLowerCase());
}

export async function recognizeRequest(ctx: ApiV1Context) {
  const { image } = await readImageForm(ctx);
  return recognizeFaces(await ctx.bank(), image);
}

export async function listPersonsRequest(ctx: ApiV1Context) {
  const url = new URL(ctx.request.url);
  const query = listPersonsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) throw firstIssue(query.error, 'limit');
  return listPersons(await ctx.bank(), query.data.limit, query.data.offset);
}

export async function getPersonRequest(ctx: ApiV1Context) {
  return getPerson(await ctx.bank(), personId(ctx));
}

export async function updatePersonRequest(ctx: ApiV1Context) {
  const id = personId(ctx);
  const body = await readApiV1Json(ctx.request, MAX_JSON_BODY_BYTES);
  if (body !== null && typeof body === 'object' && 'metadata' in body) {
    const m = (body as { metadata: unknown }).metadata;
    // Same rules (object, depth, NUL, size) and code as registration; the depth check runs
    // before JSON.stringify, whose recursion a deeply nested body could overflow.
    const problem = metadataProblem(m);
    if (problem) throw new ApiV1Error(400, 'INVALID_METADATA', `Field 'metadata': ${problem}.`);
    parseMetadata(JSON.stringify(m), false);
  }
  const patch = updatePersonSchema.safeParse(body);
  if (!patch.success) throw firstIssue(patch.error, 'body');
  return updatePerson(await ctx.bank(), id, patch.data);
}

export async function deletePersonRequest(ctx: ApiV1Context) {
  return deletePerson(await ctx.bank(), personId(ctx));
}
