/** GET /api/v1/persons/{id}. */
import type { Person } from '@/lib/contracts/persons';
import { faceErrors } from '@/lib/errors/domain-error';
import { toPerson, type MemoryBank } from './memory-bank';

export async function getPerson(bank: MemoryBank, personId: string): Promise<Person> {
  const row = await bank.store.getPerson(personId);
  if (!row) throw faceErrors.personNotFound(personId);
  return toPerson(row);
}
