// drizzle-kit configuration: `npx drizzle-kit check` / `generate` against lib/db/schema.ts.
// The committed migrations in lib/db/migrations are applied by lib/db/migrate.ts at start-up;
// 0001_pgvector.sql is hand-written (applied only where pgvector exists).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema.ts',
  out: './lib/db/migrations/drizzle-kit',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost:5432/vigil' },
});
