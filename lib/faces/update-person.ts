/** PATCH /api/v1/persons/{id}: name, relationship and metadata (metadata is replaced, not merged). */
import type { Person, UpdatePersonRequest } from '@/lib/contracts/persons';
import { faceErrors } from '@/lib/errors/domain-error';
import { toPerson, type MemoryBank } from './memory-bank';

export async function updatePerson(bank: MemoryBank, personId: string, patch: UpdatePersonRequest): Promise<Person> {
  const row = await bank.store.updatePerson(personId, patch);
  if (!row) throw faceErrors.personNotFound(personId);
  return toPerson(row);
}
