/**
 * DELETE /api/v1/persons/{id}/faces/{face_id}: a hard delete of one face (and any stored photo).
 * The last face is never deleted (409 LAST_FACE): a person with no face cannot be recognised,
 * and deleting the person is the explicit way to remove everything.
 */
import { FaceError, faceErrors } from '@/lib/errors/domain-error';
import type { MemoryBank } from './memory-bank';

export async function deleteFace(bank: MemoryBank, personId: string, faceId: string) {
  const result = await bank.store.deleteFace(personId, faceId);
  if (result === 'no-person') throw faceErrors.personNotFound(personId);
  if (result === 'no-face') throw faceErrors.faceNotFound(personId, faceId);
  if ('last' in result) {
    const p = result.last;
    throw new FaceError(
      'LAST_FACE',
      `This is the only face of ${p.name}; a person needs at least one. Add another photo first, or delete the person (DELETE /api/v1/persons/${p.id}).`,
      { details: { person_id: p.id, name: p.name } },
    );
  }
  return { person_id: personId, face_id: faceId, deleted: true as const, embedding_count: result.person.embeddingCount };
}
