/** What every memory-bank operation needs: the models, the store and the configuration. */
import type { PersonStore } from '@/lib/db/person-store';
import type { PersonRow } from '@/lib/db/schema';
import type { Person } from '@/lib/contracts/persons';
import type { Env } from '@/lib/env';
import type { FaceEngine } from './face-engine';

export interface MemoryBank {
  engine: () => Promise<FaceEngine>;
  store: PersonStore;
  config: Pick<
    Env,
    | 'FACE_MATCH_THRESHOLD'
    | 'FACE_MISMATCH_DISTANCE'
    | 'STORE_FACE_IMAGES'
    | 'FACE_MAX_IMAGE_PIXELS'
    | 'FACE_MIN_SIZE_PX'
    | 'FACE_MIN_SCORE'
    | 'FACE_DOMINANCE_RATIO'
    | 'FACE_MAX_FACES'
  >;
}

export function toPerson(row: PersonRow): Person {
  return {
    person_id: row.id,
    name: row.name,
    relationship: row.relationship,
    embedding_count: row.embeddingCount,
    created_at: row.createdAt.toISOString(),
    metadata: row.metadata ?? {},
  };
}
