/**
 * DELETE /api/v1/persons/{id}: a hard delete of the person, every embedding and any stored
 * photo, in one transaction. Nothing is kept for recovery: this is biometric data.
 */
import { faceErrors } from '@/lib/errors/domain-error';
import type { MemoryBank } from './memory-bank';

export async function deletePerson(bank: MemoryBank, personId: string) {
  const result = await bank.store.deletePerson(personId);
  if (!result) throw faceErrors.personNotFound(personId);
  return { person_id: personId, deleted: true as const, embeddings_deleted: result.embeddingsDeleted };
}
