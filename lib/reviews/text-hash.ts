/**
 * The review queue's identity of a text: SHA-256 (hex) of normaliseForHash(text), so the same
 * sentence sent with other spacing or compatibility characters is one item. Migration 0005
 * computes the same in SQL for rows stored before it.
 */
import { createHash } from 'node:crypto';
import { normaliseForHash } from './normalise-text';

export function textHash(text: string): string {
  return createHash('sha256').update(normaliseForHash(text), 'utf8').digest('hex');
}
