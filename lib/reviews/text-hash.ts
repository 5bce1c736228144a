/**
 * The review queue's identity of a text: SHA-256 (hex) of normaliseForHash(text), so the same
 * sentence sent with other spacing, compatibility or invisible characters is one item. Migration
 * 0005 computed it in SQL for rows stored before it, without removing invisible characters
 * (PostgreSQL's regular expressions have no Unicode properties); a stored row whose text has one
 * keeps that older hash, so the same text seen again opens one new item beside it.
 */
import { createHash } from 'node:crypto';
import { normaliseForHash } from './normalise-text';

export function textHash(text: string): string {
  return createHash('sha256').update(normaliseForHash(text), 'utf8').digest('hex');
}
