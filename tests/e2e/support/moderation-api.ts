/** The server side of the browser-vs-server comparison: `POST /v1/moderate/batch`. */
import { expect, type APIRequestContext } from '@playwright/test';
import type { BatchResponse, ModerationResponse } from '@/lib/contracts/moderation';

export async function moderateOnServer(request: APIRequestContext, texts: string[]): Promise<ModerationResponse[]> {
  const res = await request.post('/v1/moderate/batch', { data: { texts } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as BatchResponse;
  expect(body.results).toHaveLength(texts.length);
  return body.results;
}
