/**
 * Every query of the memory bank. Writes that touch both tables run in one transaction, so a
 * failure leaves nothing half-written, and `embedding_count` moves with the embeddings.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { eraseDeletedRows } from './erase-deleted-rows';
import type { AppDb, Database } from './open-database';
import { faceEmbeddings, persons, type FaceEmbeddingRow, type PersonRow } from './schema';

export interface NewEmbedding {
  descriptor: number[];
  modelVersion: string;
  quality: number;
  faceSizePx: number;
  image?: { bytes: Buffer; format: string };
  /** Stored over a FACE_MISMATCH refusal, on the caller's confirmation. */
  mismatchConfirmed?: boolean;
}

/** A stored face without its photo: what listing and the mismatch check read. */
export type StoredFaceRow = Pick<
  FaceEmbeddingRow,
  'id' | 'embedding' | 'modelVersion' | 'quality' | 'faceSizePx' | 'mismatchConfirmed' | 'createdAt'
>;
const storedFaceColumns = {
  id: faceEmbeddings.id,
  embedding: faceEmbeddings.embedding,
  modelVersion: faceEmbeddings.modelVersion,
  quality: faceEmbeddings.quality,
  faceSizePx: faceEmbeddings.faceSizePx,
  mismatchConfirmed: faceEmbeddings.mismatchConfirmed,
  createdAt: faceEmbeddings.createdAt,
};

export interface NearestMatch {
  personId: string;
  name: string;
  relationship: string;
  distance: number;
}

/** One registration at a time: the duplicate check and the insert must see the same bank. */
const HNSW_EF_SEARCH = 200;
const REGISTRATION_LOCK = 0x66_61_63_65; // 'face'

function rows<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

function vectorLiteral(v: number[]): string {
  return `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;
}

/** drizzle expands a JS array in a sql`` template into a parameter list; send one text literal instead. */
function arrayLiteral(v: number[]): string {
  return `{${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}}`;
}

/** Whether an update replaced a value a person gave (the old one is then left in the row's old version). */
function personalDataChanged(before: PersonRow, after: PersonRow): boolean {
  return (
    before.name !== after.name ||
    before.relationship !== after.relationship ||
    JSON.stringify(before.metadata) !== JSON.stringify(after.metadata)
  );
}

function embeddingValues(personId: string, e: NewEmbedding) {
  return {
    personId,
    embedding: e.descriptor,
    modelVersion: e.modelVersion,
    quality: e.quality,
    faceSizePx: e.faceSizePx,
    image: e.image?.bytes ?? null,
    imageFormat: e.image?.format ?? null,
    mismatchConfirmed: e.mismatchConfirmed ?? false,
  };
}

export function createPersonStore(database: Database) {
  const { db } = database;

  /** Nearest stored faces, best per person, closest first. */
  async function nearest(q: AppDb, descriptor: number[], modelVersion: string, k: number, inTransaction = false): Promise<NearestMatch[]> {
    let hits: { person_id: string; distance: number }[];
    if (database.hasVector) {
      const v = vectorLiteral(descriptor);
      // HNSW returns the k nearest embeddings; several may belong to one person, so ask for more.
      // A wider candidate list than pgvector's default (40) keeps recall near 1 for faces.
      const search = async (t: AppDb) => {
        await t.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${HNSW_EF_SEARCH}`));
        return rows<{ person_id: string; distance: number }>(
          await t.execute(sql`
            SELECT person_id, (embedding_vec <-> ${v}::vector) AS distance
            FROM face_embeddings
            WHERE model_version = ${modelVersion}
            ORDER BY embedding_vec <-> ${v}::vector
            LIMIT ${k * 4}`),
        );
      };
      hits = inTransaction ? await search(q) : await q.transaction((t) => search(t as unknown as AppDb));
    } else {
      // Exact scan without pgvector (e.g. Debian's PostgreSQL): the distance in SQL over real[].
      hits = rows(
        await q.execute(sql`
          SELECT e.person_id, sqrt(d.sum) AS distance
          FROM face_embeddings e,
          LATERAL (SELECT sum((a - b) * (a - b)) AS sum FROM unnest(e.embedding, ${arrayLiteral(descriptor)}::real[]) AS t(a, b)) d
          WHERE e.model_version = ${modelVersion}
          ORDER BY d.sum
          LIMIT ${k * 4}`),
      );
    }
    const best = new Map<string, number>();
    for (const h of hits) {
      const d = Number(h.distance);
      if (!best.has(h.person_id) || d < best.get(h.person_id)!) best.set(h.person_id, d);
    }
    const ids = [...best.keys()].slice(0, k);
    if (ids.length === 0) return [];
    const people = await q
      .select({ id: persons.id, name: persons.name, relationship: persons.relationship })
      .from(persons)
      .where(
        sql`${persons.id} IN (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
    return people
      .map((p) => ({ personId: p.id, name: p.name, relationship: p.relationship, distance: best.get(p.id)! }))
      .sort((a, b) => a.distance - b.distance);
  }

  return {
    nearest: (descriptor: number[], modelVersion: string, k = 1) => nearest(db, descriptor, modelVersion, k),

    /**
     * Creates the person with its first embedding, unless `isDuplicate` says the nearest stored
     * face is the same person: then nothing is written and that match is returned.
     */
    async createPerson(
      input: { name: string; relationship: string; metadata: Record<string, unknown> },
      embedding: NewEmbedding,
      isDuplicate: (nearest: NearestMatch | undefined) => boolean,
    ): Promise<{ person: PersonRow } | { duplicateOf: NearestMatch }> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${REGISTRATION_LOCK})`);
        const [match] = await nearest(tx as unknown as AppDb, embedding.descriptor, embedding.modelVersion, 1, true);
        if (isDuplicate(match)) return { duplicateOf: match! };
        const [person] = await tx
          .insert(persons)
          .values({ name: input.name, relationship: input.relationship, metadata: input.metadata, embeddingCount: 1 })
          .returning();
        await tx.insert(faceEmbeddings).values(embeddingValues(person!.id, embedding));
        return { person: person! };
      });
    },

    /**
     * Adds one embedding unless `decide`, shown the person and their stored faces, refuses it
     * (then nothing is written and its reason is returned); undefined when the person does not
     * exist. The person's row is locked first, so concurrent additions are checked one at a time.
     */
    async addEmbedding<R>(
      personId: string,
      embedding: NewEmbedding,
      decide: (person: PersonRow, faces: StoredFaceRow[]) => { refuse: R } | { mismatchConfirmed: boolean } = () => ({
        mismatchConfirmed: false,
      }),
    ): Promise<{ person: PersonRow } | { refused: R } | undefined> {
      return db.transaction(async (tx) => {
        const [locked] = await tx.select().from(persons).where(eq(persons.id, personId)).for('update');
        if (!locked) return undefined;
        const faces = await tx.select(storedFaceColumns).from(faceEmbeddings).where(eq(faceEmbeddings.personId, personId));
        const decision = decide(locked, faces);
        if ('refuse' in decision) return { refused: decision.refuse };
        const [person] = await tx
          .update(persons)
          .set({ embeddingCount: sql`${persons.embeddingCount} + 1`, updatedAt: sql`now()` })
          .where(eq(persons.id, personId))
          .returning();
        await tx.insert(faceEmbeddings).values(embeddingValues(personId, { ...embedding, mismatchConfirmed: decision.mismatchConfirmed }));
        return { person: person! };
      });
    },

    /** The person's faces without photos (only whether one is stored), oldest first. */
    async listFaces(personId: string): Promise<(StoredFaceRow & { photoStored: boolean })[]> {
      return db
        .select({ ...storedFaceColumns, photoStored: sql<boolean>`${faceEmbeddings.image} is not null` })
        .from(faceEmbeddings)
        .where(eq(faceEmbeddings.personId, personId))
        .orderBy(asc(faceEmbeddings.createdAt), asc(faceEmbeddings.id));
    },

    /**
     * Deletes one face (and its stored photo) and decrements the count, in one transaction with
     * the person's row locked, then erases the photo's bytes from the database files. Never the
     * last face: a person without faces cannot be recognised and the page would show nothing to
     * recognise them by, so that answers `last` and deletes nothing.
     */
    async deleteFace(personId: string, faceId: string): Promise<{ person: PersonRow } | { last: PersonRow } | 'no-person' | 'no-face'> {
      const result = await db.transaction(async (tx) => {
        const [locked] = await tx.select().from(persons).where(eq(persons.id, personId)).for('update');
        if (!locked) return 'no-person' as const;
        const [face] = await tx
          .select({ id: faceEmbeddings.id })
          .from(faceEmbeddings)
          .where(and(eq(faceEmbeddings.id, faceId), eq(faceEmbeddings.personId, personId)));
        if (!face) return 'no-face' as const;
        const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(faceEmbeddings).where(eq(faceEmbeddings.personId, personId));
        if (Number(n) <= 1) return { last: locked };
        await tx.delete(faceEmbeddings).where(eq(faceEmbeddings.id, faceId));
        const [person] = await tx
          .update(persons)
          .set({ embeddingCount: Number(n) - 1, updatedAt: sql`now()` })
          .where(eq(persons.id, personId))
          .returning();
        return { person: person! };
      });
      if (typeof result === 'object' && 'person' in result) await eraseDeletedRows(database);
      return result;
    },

    /** One face's stored photo: undefined when the person has no such face, null when it has no photo. */
    async getFaceImage(personId: string, faceId: string): Promise<{ bytes: Buffer; format: string } | null | undefined> {
      const [row] = await db
        .select({ image: faceEmbeddings.image, format: faceEmbeddings.imageFormat })
        .from(faceEmbeddings)
        .where(and(eq(faceEmbeddings.id, faceId), eq(faceEmbeddings.personId, personId)));
      if (!row) return undefined;
      return row.image && row.format ? { bytes: row.image, format: row.format } : null;
    },

    async getPerson(personId: string): Promise<PersonRow | undefined> {
      const [person] = await db.select().from(persons).where(eq(persons.id, personId));
      return person;
    },

    async listPersons(limit: number, offset: number): Promise<{ persons: PersonRow[]; total: number }> {
      const [page, [total]] = await Promise.all([
        db.select().from(persons).orderBy(asc(persons.createdAt), asc(persons.id)).limit(limit).offset(offset),
        db.select({ n: count() }).from(persons),
      ]);
      return { persons: page, total: Number(total?.n ?? 0) };
    },

    /**
     * Replaces name, relationship and metadata as given. A value it replaces stays readable in the
     * row's old version (the table's file and the WAL), so when one changed, the old version is
     * erased from the database files after the update commits (eraseDeletedRows).
     */
    async updatePerson(
      personId: string,
      patch: { name?: string; relationship?: string; metadata?: Record<string, unknown> },
    ): Promise<PersonRow | undefined> {
      const result = await db.transaction(async (tx) => {
        const [before] = await tx.select().from(persons).where(eq(persons.id, personId)).for('update');
        if (!before) return undefined;
        const [person] = await tx
          .update(persons)
          .set({ ...patch, updatedAt: sql`now()` })
          .where(eq(persons.id, personId))
          .returning();
        return { person: person!, removed: personalDataChanged(before, person!) };
      });
      if (result?.removed) await eraseDeletedRows(database);
      return result?.person;
    },

    /**
     * Hard delete: the embeddings (and any stored photos) and then the person, in one transaction;
     * then their bytes are erased from the database files (eraseDeletedRows).
     */
    async deletePerson(personId: string): Promise<{ embeddingsDeleted: number } | undefined> {
      const result = await db.transaction(async (tx) => {
        const [person] = await tx.select({ id: persons.id }).from(persons).where(eq(persons.id, personId)).for('update');
        if (!person) return undefined;
        const removed = await tx.delete(faceEmbeddings).where(eq(faceEmbeddings.personId, personId)).returning({ id: faceEmbeddings.id });
        await tx.delete(persons).where(eq(persons.id, personId));
        return { embeddingsDeleted: removed.length };
      });
      if (result) await eraseDeletedRows(database);
      return result;
    },

    async countEmbeddings(personId?: string): Promise<number> {
      const q = db.select({ n: count() }).from(faceEmbeddings);
      const [r] = personId ? await q.where(eq(faceEmbeddings.personId, personId)) : await q;
      return Number(r?.n ?? 0);
    },
  };
}

export type PersonStore = ReturnType<typeof createPersonStore>;
