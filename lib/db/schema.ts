/**
 * The memory bank's tables (drizzle). Embeddings are `real[]` so the schema runs on any
 * PostgreSQL; where pgvector exists, migration 0001 adds a generated `vector(128)` copy with an
 * HNSW index for nearest-neighbour search (docs/decisions/011-memory-bank-storage.md).
 */
import { sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});

export const persons = pgTable('persons', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  relationship: text('relationship').notNull().default(''),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  /** Kept in step with face_embeddings inside the same transactions: listing never counts rows. */
  embeddingCount: integer('embedding_count').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const faceEmbeddings = pgTable(
  'face_embeddings',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    personId: uuid('person_id')
      .notNull()
      .references(() => persons.id, { onDelete: 'cascade' }),
    embedding: real('embedding').array().notNull(),
    modelVersion: text('model_version').notNull(),
    /** Detector confidence of the face, [0, 1]. */
    quality: real('quality').notNull(),
    /** Shorter side of the face box in image pixels. */
    faceSizePx: integer('face_size_px').notNull(),
    /** Only with STORE_FACE_IMAGES=true; deleted with the embedding. */
    image: bytea('image'),
    imageFormat: text('image_format'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('face_embeddings_person_id_idx').on(t.personId)],
);

export type PersonRow = typeof persons.$inferSelect;
export type FaceEmbeddingRow = typeof faceEmbeddings.$inferSelect;
