// drizzle-kit's CLI (studio, introspection) against lib/db/schema.ts. Migrations are not generated:
// the hand-written files in lib/db/migrations run at start-up (lib/db/migrate.ts), and
// lib/db/schema-matches-migrations.integration.test.ts uses drizzle-kit's API to check that schema.ts
// describes what they build (docs/decisions/095-one-schema-source.md).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema.ts',
  out: './lib/db/migrations/drizzle-kit',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost:5432/vigil' },
});
