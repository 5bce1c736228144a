/**
 * GET /api/v1/persons/{id}/faces: the person's stored faces without photos (`photo_stored` says whether
 * one is stored), each with its
 * distance to the person's other faces, so an operator can spot (and remove) one that belongs
 * to someone else: `outlier` marks a face farther than FACE_MISMATCH_DISTANCE from all the others.
 */
import type { FaceList } from '@/lib/contracts/persons';
import { faceErrors } from '@/lib/errors/domain-error';
import { euclideanDistance } from './face-similarity';
import type { MemoryBank } from './memory-bank';

const round = (x: number) => Number(x.toFixed(4));

export async function listFaces(bank: MemoryBank, personId: string): Promise<FaceList> {
  const person = await bank.store.getPerson(personId);
  if (!person) throw faceErrors.personNotFound(personId);
  const rows = await bank.store.listFaces(personId);
  const bound = bank.config.FACE_MISMATCH_DISTANCE;
  const faces = rows.map((f) => {
    // Descriptors of different model versions live in different spaces: compare like with like.
    const others = rows
      .filter((o) => o !== f && o.modelVersion === f.modelVersion)
      .map((o) => euclideanDistance(f.embedding.map(Number), o.embedding.map(Number)));
    const nearest = others.length ? Math.min(...others) : null;
    return {
      face_id: f.id,
      created_at: f.createdAt.toISOString(),
      quality: round(Math.min(1, Math.max(0, f.quality))),
      face_size_px: f.faceSizePx,
      model_version: f.modelVersion,
      nearest_distance: nearest === null ? null : round(nearest),
      mean_distance: others.length ? round(others.reduce((a, b) => a + b, 0) / others.length) : null,
      outlier: nearest !== null && nearest > bound,
      mismatch_confirmed: f.mismatchConfirmed,
      photo_stored: f.photoStored,
    };
  });
  return { person_id: person.id, name: person.name, mismatch_distance: bound, faces };
}
