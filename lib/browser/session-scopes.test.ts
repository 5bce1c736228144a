import { describe, expect, it } from 'vitest';
import { SCOPES } from '@/lib/contracts/scopes';
import { summarizeScopes } from './session-scopes';

describe('summarizeScopes', () => {
  it('lists granted scopes in the canonical order with their meaning, and the missing ones', () => {
    expect(summarizeScopes(['faces:read', 'review'])).toEqual({
      granted: ['review – the review queue and audit log', 'faces:read – see people and recognize faces'],
      missing: ['moderate', 'faces:write', 'admin'],
    });
  });

  it('shows nothing missing for a key with every scope, and nothing at all without scopes', () => {
    expect(summarizeScopes([...SCOPES])?.missing).toEqual([]);
    expect(summarizeScopes(null)).toBeNull();
    expect(summarizeScopes(undefined)).toBeNull();
  });
});
