/**
 * POST /api/v1/persons/{id}/faces: one more embedding for a registered person. A face farther
 * than FACE_MISMATCH_DISTANCE from every face the person already has (same model) is refused
 * with 409 FACE_MISMATCH unless the caller confirms: otherwise one wrong photo makes a stranger
 * be recognised as this person. The bound is justified in
 * docs/decisions/060-face-mismatch-bound.md.
 */
import type { Person } from '@/lib/contracts/persons';
import type { PersonRow } from '@/lib/db/schema';
import { FaceError, faceErrors } from '@/lib/errors/domain-error';
import { describeRegistrationFace } from './describe-registration-face';
import { euclideanDistance, similarityFromDistance } from './face-similarity';
import { toPerson, type MemoryBank } from './memory-bank';

export interface AddFaceOptions {
  /** Store the face even when it is far from the person's faces (recorded on the face). */
  confirmMismatch?: boolean;
}

export async function addFace(bank: MemoryBank, personId: string, image: Buffer, options: AddFaceOptions = {}): Promise<Person> {
  // Fail fast on an unknown id before spending a model run on the photo.
  if (!(await bank.store.getPerson(personId))) throw faceErrors.personNotFound(personId);
  const embedding = await describeRegistrationFace(bank, image);
  const bound = bank.config.FACE_MISMATCH_DISTANCE;
  const result = await bank.store.addEmbedding<{ person: PersonRow; nearest: number }>(personId, embedding, (person, faces) => {
    const comparable = faces.filter((f) => f.modelVersion === embedding.modelVersion);
    // Nothing to compare with (faces of an older model only): nothing to refuse on.
    if (comparable.length === 0) return { mismatchConfirmed: false };
    const nearest = Math.min(...comparable.map((f) => euclideanDistance(embedding.descriptor, f.embedding.map(Number))));
    if (nearest <= bound) return { mismatchConfirmed: false };
    if (options.confirmMismatch) return { mismatchConfirmed: true };
    return { refuse: { person, nearest } };
  });
  if (!result) throw faceErrors.personNotFound(personId); // deleted meanwhile
  if ('refused' in result) {
    const { person, nearest } = result.refused;
    const similarity = Number(similarityFromDistance(nearest).toFixed(4));
    throw new FaceError(
      'FACE_MISMATCH',
      `This face does not look like ${person.name}: its distance to their closest stored face is ${nearest.toFixed(2)} ` +
        `(similarity ${similarity.toFixed(2)}), above the limit of ${bound}. Send confirm_mismatch=true to add it anyway.`,
      { details: { person_id: person.id, name: person.name, similarity, distance: Number(nearest.toFixed(4)) } },
    );
  }
  return toPerson(result.person);
}
