-- Which faces an operator added over a FACE_MISMATCH refusal (confirm_mismatch=true), so the
-- people page can point at them later (docs/decisions/060-face-mismatch-bound.md).
ALTER TABLE face_embeddings ADD COLUMN IF NOT EXISTS mismatch_confirmed boolean NOT NULL DEFAULT false;
