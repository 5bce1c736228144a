/** Photo bytes -> the one face to store (decode, detect, choose, gate) as a new embedding. */
import type { NewEmbedding } from '@/lib/db/person-store';
import { checkImage } from './decode-image';
import type { MemoryBank } from './memory-bank';
import { selectRegistrationFace } from './select-face';

export async function describeRegistrationFace(bank: MemoryBank, bytes: Buffer): Promise<NewEmbedding> {
  // The header checks run here, before the photo travels to the face engine (which decodes it).
  const image = await checkImage(bytes, bank.config.FACE_MAX_IMAGE_PIXELS);
  const engine = await bank.engine();
  const faces = await engine.detect(bytes, bank.config.FACE_MAX_IMAGE_PIXELS);
  const face = selectRegistrationFace(faces, {
    minSizePx: bank.config.FACE_MIN_SIZE_PX,
    minScore: bank.config.FACE_MIN_SCORE,
    dominanceRatio: bank.config.FACE_DOMINANCE_RATIO,
  });
  return {
    descriptor: face.descriptor,
    modelVersion: engine.modelVersion,
    quality: face.score,
    faceSizePx: Math.min(face.box.width, face.box.height),
    image: bank.config.STORE_FACE_IMAGES ? { bytes, format: image.format } : undefined,
  };
}
