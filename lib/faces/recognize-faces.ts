/**
 * POST /api/v1/recognize: every face in the photo (largest first, at most FACE_MAX_FACES) with
 * its nearest registered person. Below the threshold a face is reported as unknown.
 */
import type { RecognizeResult } from '@/lib/contracts/persons';
import { checkImage } from './decode-image';
import { isMatch, similarityFromDistance } from './face-similarity';
import type { MemoryBank } from './memory-bank';

export async function recognizeFaces(bank: MemoryBank, bytes: Buffer): Promise<RecognizeResult> {
  // The header checks run here, before the photo travels to the face engine (which decodes it).
  await checkImage(bytes, bank.config.FACE_MAX_IMAGE_PIXELS);
  const engine = await bank.engine();
  const faces = (await engine.detect(bytes, bank.config.FACE_MAX_IMAGE_PIXELS)).slice(0, bank.config.FACE_MAX_FACES);
  const answers = await Promise.all(
    faces.map(async (face) => {
      const [nearest] = await bank.store.nearest(face.descriptor, engine.modelVersion, 1);
      const match = isMatch(nearest?.distance, bank.config.FACE_MATCH_THRESHOLD);
      return {
        box: face.box,
        person_id: match ? nearest!.personId : null,
        name: match ? nearest!.name : null,
        relationship: match ? nearest!.relationship : null,
        similarity: nearest ? Number(similarityFromDistance(nearest.distance).toFixed(4)) : 0,
        match,
      };
    }),
  );
  return { faces: answers };
}
