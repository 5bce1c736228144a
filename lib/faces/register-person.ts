/**
 * POST /api/v1/register: a new person with their first face. A face that already matches a
 * registered person (similarity >= FACE_MATCH_THRESHOLD) is refused with 409, naming that
 * person, unless the caller sets allow_duplicate; the check and the insert share one locked
 * transaction, so two concurrent uploads of one face cannot both pass.
 */
import type { Person } from '@/lib/contracts/persons';
import { FaceError } from '@/lib/errors/domain-error';
import { describeRegistrationFace } from './describe-registration-face';
import { isMatch, similarityFromDistance } from './face-similarity';
import { toPerson, type MemoryBank } from './memory-bank';

export interface RegisterPersonInput {
  name: string;
  relationship: string;
  metadata: Record<string, unknown>;
  allowDuplicate: boolean;
  image: Buffer;
}

export async function registerPerson(bank: MemoryBank, input: RegisterPersonInput): Promise<Person> {
  const embedding = await describeRegistrationFace(bank, input.image);
  const result = await bank.store.createPerson(
    { name: input.name, relationship: input.relationship, metadata: input.metadata },
    embedding,
    (nearest) => !input.allowDuplicate && isMatch(nearest?.distance, bank.config.FACE_MATCH_THRESHOLD),
  );
  if ('duplicateOf' in result) {
    const d = result.duplicateOf;
    const similarity = Number(similarityFromDistance(d.distance).toFixed(4));
    // `details` carries the person so a page can name them and offer to add the photos to them.
    throw new FaceError(
      'FACE_ALREADY_REGISTERED',
      `This face is already registered as ${d.name} (person ${d.personId}, similarity ${similarity.toFixed(2)}). ` +
        `Add photos to them with POST /api/v1/persons/${d.personId}/faces, or send allow_duplicate=true to register a separate person.`,
      { details: { person_id: d.personId, name: d.name, similarity, distance: Number(d.distance.toFixed(4)) } },
    );
  }
  return toPerson(result.person);
}
