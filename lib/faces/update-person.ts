/** PATCH /api/v1/persons/{id}: name, relationship and metadata (metadata is replaced, not merged). */
import type { Person, UpdatePersonRequest } from '@/lib/contracts/persons';
import { apiV1Errors } from '@/lib/http/api-v1-error';
import { toPerson, type MemoryBank } from './memory-bank';

export async function updatePerson(bank: MemoryBank, personId: string, patch: UpdatePersonRequest): Promise<Person> {
  const row = await bank.store.updatePerson(personId, patch);
  if (!row) throw apiV1Errors.personNotFound(personId);
  return toPerson(row);
}
