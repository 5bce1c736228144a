-- The memory bank: persons and their face embeddings (lib/db/schema.ts).
CREATE TABLE IF NOT EXISTS persons (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  relationship text NOT NULL DEFAULT '',
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  embedding_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS persons_created_at_idx ON persons (created_at, id);

CREATE TABLE IF NOT EXISTS face_embeddings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  person_id uuid NOT NULL REFERENCES persons (id) ON DELETE CASCADE,
  embedding real[] NOT NULL CHECK (array_length(embedding, 1) = 128),
  model_version text NOT NULL,
  quality real NOT NULL,
  face_size_px integer NOT NULL,
  image bytea,
  image_format text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS face_embeddings_person_id_idx ON face_embeddings (person_id);
