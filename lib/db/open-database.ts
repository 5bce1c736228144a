/**
 * The database client, chosen from configuration: embedded PGlite on disk (default, zero
 * set-up, with pgvector), PostgreSQL through node-postgres, or Neon through
 * @neondatabase/serverless. Driver packages are required at run time so the Next bundler never
 * packs them.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { logger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import * as schema from './schema';
import { ownerOnlyDirectory, restrictTree } from './restrict-permissions';

export type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'pg' | 'neon';

/** One connection inside a transaction, as the migrations runner needs it. */
export interface ScriptSession {
  /** A whole SQL script, several statements, through the driver's multi-statement path. */
  exec(script: string): Promise<void>;
  /** One parameterised statement. */
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  kind: DatabaseKind;
  db: AppDb;
  /**
   * Runs `fn` in one transaction on one connection, committed when it resolves. Its `exec` sends a
   * script as written (PGlite `exec`; node-postgres and Neon: the simple query protocol, a query
   * without parameters), so migration files with function bodies and dollar quotes need no
   * splitting (docs/decisions/095-one-schema-source.md).
   */
  scriptTransaction<T>(fn: (tx: ScriptSession) => Promise<T>): Promise<T>;
  /** Whether nearest-neighbour search may use pgvector (set by the migrations runner). */
  hasVector: boolean;
  /** Connection counts for the metrics: the pool's for node-postgres and Neon, one connection for PGlite. */
  stats(): { total: number; idle?: number; waiting?: number };
  /** The node-postgres (or Neon) pool under `db`, for stores that speak to it directly (rate limits); absent on PGlite. */
  pool?: import('pg').Pool;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  DATA_DIR: string;
  DATABASE_URL?: string;
  DATABASE_DRIVER?: DatabaseKind;
  DATABASE_POOL_MAX: number;
  /** PGlite's `shared_buffers` (e.g. `16MB`); PGlite's own default (128MB) costs ~120 MB of RSS. */
  PGLITE_SHARED_BUFFERS?: string;
}

const poolStats = (pool: { totalCount: number; idleCount: number; waitingCount: number }) => ({
  total: pool.totalCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});

const CONNECT_TIMEOUT_MS = 5_000;

type PoolLike = Pick<import('pg').Pool, 'connect'>;

/** BEGIN … COMMIT on one pooled connection; a connection whose ROLLBACK failed is dropped, not reused. */
async function poolScriptTransaction<T>(pool: PoolLike, fn: (tx: ScriptSession) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const out = await fn({
      // A string with no values goes through the simple query protocol, which runs several statements.
      exec: async (script) => {
        await client.query(script);
      },
      query: async <R>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as R[],
    });
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => {
      broken = e;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}

const runtimeRequire = () => createRequire(path.join(process.cwd(), 'package.json'));

export function chooseDriver(o: Pick<DatabaseOptions, 'DATABASE_URL' | 'DATABASE_DRIVER'>): DatabaseKind {
  if (o.DATABASE_DRIVER) return o.DATABASE_DRIVER;
  if (!o.DATABASE_URL) return 'pglite';
  const host = new URL(o.DATABASE_URL).hostname;
  return host.endsWith('.neon.tech') || host.endsWith('.neon.build') ? 'neon' : 'pg';
}

export async function openDatabase(o: DatabaseOptions): Promise<Database> {
  const kind = chooseDriver(o);
  const req = runtimeRequire();
  if (kind === 'pglite') {
    const { PGlite } = req('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
    const { vector } = req('@electric-sql/pglite-pgvector') as typeof import('@electric-sql/pglite-pgvector');
    let dataDir: string | undefined;
    if (o.DATA_DIR !== ':memory:') {
      ownerOnlyDirectory(path.resolve(o.DATA_DIR));
      dataDir = path.resolve(o.DATA_DIR, 'pglite');
      ownerOnlyDirectory(dataDir);
    }
    // shared_buffers sits inside PGlite's wasm heap, so every page it touches stays resident; the
    // kernel's page cache below NODEFS already caches the files (docs/benchmarks-history.md, memory).
    // wal_recycle = off: a WAL segment no longer needed is unlinked, not renamed for reuse with the
    // rows it logged still inside (an erased person, docs/decisions/145-erasure-reaches-the-disk.md).
    // PGlite writes postgresql.conf at every start, so existing data folders get it too.
    const postgresqlconf = ['wal_recycle = off', ...(o.PGLITE_SHARED_BUFFERS ? [`shared_buffers = ${o.PGLITE_SHARED_BUFFERS}`] : [])];
    const client = await PGlite.create(dataDir, { extensions: { vector }, postgresqlconf });
    const lockDown = () => dataDir && restrictTree(dataDir);
    lockDown();
    const db = drizzlePglite(client, { schema }) as unknown as AppDb;
    // One embedded connection that serialises its queries; PGlite exposes no queue length.
    return {
      kind,
      db,
      hasVector: false,
      scriptTransaction: (fn) =>
        client.transaction((tx) =>
          fn({
            exec: async (script) => {
              await tx.exec(script);
            },
            query: async <R>(text: string, params?: unknown[]) => (await tx.query<R>(text, params)).rows,
          }),
        ),
      stats: () => ({ total: 1 }),
      close: async () => {
        await client.close();
        lockDown();
      },
    };
  }
  if (kind === 'pg') {
    const pg = req('pg') as typeof import('pg');
    // A bounded connect: a database host that drops packets must turn into a 503, not a hung request.
    const pool = new pg.Pool({ connectionString: o.DATABASE_URL, max: o.DATABASE_POOL_MAX, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    pool.on('error', (err) => logger().error({ err: errorForLog(err) }, 'postgres pool error'));
    const db = drizzlePg(pool, { schema }) as unknown as AppDb;
    return {
      kind,
      db,
      hasVector: false,
      pool,
      scriptTransaction: (fn) => poolScriptTransaction(pool, fn),
      stats: () => poolStats(pool),
      close: () => pool.end(),
    };
  }
  const neon = req('@neondatabase/serverless') as typeof import('@neondatabase/serverless');
  if (typeof WebSocket === 'undefined' && !neon.neonConfig.webSocketConstructor) {
    throw new Error('Neon needs a WebSocket: run Node 22+ or start Node with --experimental-websocket.');
  }
  const { drizzle: drizzleNeon } = await import('drizzle-orm/neon-serverless');
  const pool = new neon.Pool({ connectionString: o.DATABASE_URL, max: o.DATABASE_POOL_MAX, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  const db = drizzleNeon(pool, { schema }) as unknown as AppDb;
  // Neon's Pool is node-postgres' Pool over a WebSocket: same query API.
  return {
    kind,
    db,
    hasVector: false,
    pool: pool as unknown as import('pg').Pool,
    scriptTransaction: (fn) => poolScriptTransaction(pool as unknown as PoolLike, fn),
    stats: () => poolStats(pool),
    close: () => pool.end(),
  };
}
