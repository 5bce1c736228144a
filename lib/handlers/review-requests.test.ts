/**
 * The review routes once answered "required" for a present field of the wrong
 * type. Validation fails before the store is reached, so the context needs only the request.
 */
import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '@/lib/errors/domain-error';
import { apiV1Status } from '@/lib/http/api-v1-status';
import type { ApiV1Context } from '@/lib/http/api-v1-route';

// 'server-only' throws outside Next's server build; this module is server code run directly.
vi.mock('server-only', () => ({}));
const { decideReviewRequest, listReviewsRequest } = await import('./review-requests');

const answer = async (f: () => Promise<unknown>) => {
  try {
    await f();
    return 'ok';
  } catch (err) {
    return DomainError.is(err) ? `${apiV1Status(err.code)} ${err.code} ${err.message}` : String(err);
  }
};
const decide = (body: unknown) =>
  answer(() =>
    decideReviewRequest({
      request: new Request('http://localhost/api/v1/reviews/x/decision', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      params: { review_id: '00000000-0000-4000-8000-000000000000' },
    } as unknown as ApiV1Context),
  );

describe('review requests name what is wrong with a field', () => {
  it('says which type was expected for a present field of the wrong type', async () => {
    expect(await decide({ decision: 'confirm', moderator: 5 })).toBe("400 VALIDATION_ERROR Field 'moderator': expected string");
    expect(await decide({ decision: 'confirm', note: ['x'] })).toBe("400 VALIDATION_ERROR Field 'note': expected string");
  });

  it('names unknown fields and bad query values', async () => {
    expect(await decide({ decision: 'confirm', extra: 1 })).toBe("400 VALIDATION_ERROR Field 'extra': unknown field");
    const list = await answer(() =>
      listReviewsRequest({ request: new Request('http://localhost/api/v1/reviews?limit=0') } as unknown as ApiV1Context),
    );
    expect(list).toMatch(/^400 VALIDATION_ERROR Field 'limit': /);
  });
});
