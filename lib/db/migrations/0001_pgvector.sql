-- requires: vector
-- Applied only where the pgvector extension is available (PGlite with pglite-pgvector, Neon,
-- PostgreSQL with pgvector). Elsewhere search falls back to an exact scan of real[].
CREATE EXTENSION IF NOT EXISTS vector;

ALTER TABLE face_embeddings
  ADD COLUMN IF NOT EXISTS embedding_vec vector(128) GENERATED ALWAYS AS (embedding::vector(128)) STORED;

CREATE INDEX IF NOT EXISTS face_embeddings_embedding_vec_hnsw
  ON face_embeddings USING hnsw (embedding_vec vector_l2_ops);
