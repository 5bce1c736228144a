/** POST /api/v1/persons/{id}/faces: one more embedding for a registered person. */
import type { Person } from '@/lib/contracts/persons';
import { apiV1Errors } from '@/lib/http/api-v1-error';
import { describeRegistrationFace } from './describe-registration-face';
import { toPerson, type MemoryBank } from './memory-bank';

export async function addFace(bank: MemoryBank, personId: string, image: Buffer): Promise<Person> {
  // Fail fast on an unknown id before spending a model run on the photo.
  if (!(await bank.store.getPerson(personId))) throw apiV1Errors.personNotFound(personId);
  const embedding = await describeRegistrationFace(bank, image);
  const person = await bank.store.addEmbedding(personId, embedding);
  if (!person) throw apiV1Errors.personNotFound(personId); // deleted meanwhile
  return toPerson(person);
}
