/** GET /api/v1/persons: a page of persons, oldest first. */
import { toPerson, type MemoryBank } from './memory-bank';

export async function listPersons(bank: MemoryBank, limit: number, offset: number) {
  const page = await bank.store.listPersons(limit, offset);
  return { persons: page.persons.map(toPerson), total: page.total, limit, offset };
}
