/** GET /api/v1/persons/{id}. */
import type { Person } from '@/lib/contracts/persons';
import { apiV1Errors } from '@/lib/http/api-v1-error';
import { toPerson, type MemoryBank } from './memory-bank';

export async function getPerson(bank: MemoryBank, personId: string): Promise<Person> {
  const row = await bank.store.getPerson(personId);
  if (!row) throw apiV1Errors.personNotFound(personId);
  return toPerson(row);
}
