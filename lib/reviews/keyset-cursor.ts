/**
 * Keyset page boundaries of the review queue and the audit log: the last row's timestamp
 * (microseconds, as PostgreSQL stores it, read with TIMESTAMP_US) and id, base64url JSON.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Cursor {
  t: string;
  id: string;
  /** The review queue's priority, in cursors of its worst-first order. */
  p?: number;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c.p === undefined ? [c.t, c.id] : [c.t, c.id, c.p]), 'utf8').toString('base64url');
}

/** undefined for anything that is not a cursor this store wrote (answered as a validation error). */
export function decodeCursor(s: string): Cursor | undefined {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || (v.length !== 2 && v.length !== 3)) return undefined;
    const [t, id, p] = v as unknown[];
    if (typeof t !== 'string' || typeof id !== 'string' || !UUID.test(id)) return undefined;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(t)) return undefined;
    if (v.length === 3)
      return Number.isInteger(p) && (p as number) >= 0 && (p as number) <= 2_147_483_647 ? { t, id, p: p as number } : undefined;
    return { t, id };
  } catch {
    return undefined;
  }
}

/** A timestamp column as UTC text with microseconds, the form a cursor carries. */
export const timestampUs = (column: PgColumn) => sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows after `c` in newest-first order (`(t, id) < cursor`). */
export const olderThan = (t: PgColumn, id: PgColumn, c: Cursor): SQL => sql`(${t}, ${id}) < (${c.t}::timestamptz, ${c.id}::uuid)`;

/** Rows after `c` in oldest-first order. */
export const newerThan = (t: PgColumn, id: PgColumn, c: Cursor): SQL => sql`(${t}, ${id}) > (${c.t}::timestamptz, ${c.id}::uuid)`;

/** LIKE pattern of a literal substring. */
export const likeLiteral = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
