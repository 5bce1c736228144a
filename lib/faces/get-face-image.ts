/**
 * GET /api/v1/persons/{id}/faces/{face_id}/image: the photo a face was taken from, so an operator
 * removing a wrong face sees it. Photos exist only where STORE_FACE_IMAGES=true when the face was
 * added; `null` says this face has none (the route answers 404 NOT_FOUND).
 */
import { faceErrors } from '@/lib/errors/domain-error';
import type { MemoryBank } from './memory-bank';

const CONTENT_TYPES: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png' };

export async function getFaceImage(
  bank: MemoryBank,
  personId: string,
  faceId: string,
): Promise<{ bytes: Buffer; contentType: string } | null> {
  if (!(await bank.store.getPerson(personId))) throw faceErrors.personNotFound(personId);
  const image = await bank.store.getFaceImage(personId, faceId);
  if (image === undefined) throw faceErrors.faceNotFound(personId, faceId);
  const contentType = image && CONTENT_TYPES[image.format];
  return image && contentType ? { bytes: image.bytes, contentType } : null;
}
