/**
 * The route table of the two API families: every path template a /v1 or /api/v1 route file
 * answers (`app/v1/jobs/[id]/route.ts` is `/v1/jobs/{id}`). The route wrappers label a request's
 * metrics and log line with `routeLabel(request.url)`: the template of the route that answers it,
 * or `unmatched` for every other path. A label is therefore always one of this table's strings,
 * never text the client wrote: a client sending thousands of distinct paths (an 8,000-character id
 * each) adds no series to /metrics and no long field to the logs. `route-table.test.ts` checks the
 * table against the route files under app/.
 */

/** The label of every path no route of the table answers (the /api/v1 JSON 404, a path Next did not map). */
export const UNMATCHED_ROUTE = 'unmatched';

export const ROUTE_TEMPLATES = [
  '/v1/health',
  '/v1/models',
  '/v1/moderate/text',
  '/v1/moderate/batch',
  '/v1/jobs',
  '/v1/jobs/{id}',
  '/v1/jobs/{id}/cancel',
  '/v1/jobs/{id}/results',
  '/api/v1/session',
  '/api/v1/sessions',
  '/api/v1/sessions/{session_id}',
  '/api/v1/register',
  '/api/v1/recognize',
  '/api/v1/persons',
  '/api/v1/persons/{person_id}',
  '/api/v1/persons/{person_id}/faces',
  '/api/v1/persons/{person_id}/faces/{face_id}',
  '/api/v1/persons/{person_id}/faces/{face_id}/image',
  '/api/v1/reviews',
  '/api/v1/reviews/config',
  '/api/v1/reviews/not-queued',
  '/api/v1/reviews/audit',
  '/api/v1/reviews/audit/export',
  '/api/v1/reviews/{review_id}/decision',
  '/api/v1/reviews/{review_id}/explain',
  '/api/v1/reviews/{review_id}/reopen',
  '/api/v1/reviews/{review_id}/undo',
  '/api/v1/policy',
  '/api/v1/policy/export',
  '/api/v1/policy/impact',
  '/api/v1/policy/versions',
  '/api/v1/policy/versions/{version}/revert',
] as const;

export type RouteLabel = (typeof ROUTE_TEMPLATES)[number] | typeof UNMATCHED_ROUTE;

/** A template's segments; `null` stands for a parameter (`{id}`), which matches any one non-empty segment. */
interface CompiledRoute {
  template: RouteLabel;
  segments: (string | null)[];
}

const isParameter = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

/**
 * A template matches only paths of its own segment count; where two could match one path, a fixed
 * segment wins over a parameter at the first place they differ, as in Next's routing
 * (`/api/v1/reviews/audit` is not `/api/v1/reviews/{review_id}`).
 */
const COMPILED: readonly CompiledRoute[] = ROUTE_TEMPLATES.map((template) => ({
  template,
  segments: template
    .split('/')
    .slice(1)
    .map((s) => (isParameter(s) ? null : s)),
})).sort((a, b) => {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const aParam = a.segments[i] === null;
    const bParam = b.segments[i] === null;
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return 0;
});

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route label of a request URL: its route's template from ROUTE_TEMPLATES, or UNMATCHED_ROUTE. */
export function routeLabel(url: string): RouteLabel {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return UNMATCHED_ROUTE;
  }
  const segments = pathname.split('/').slice(1);
  for (const route of COMPILED) {
    if (route.segments.length !== segments.length) continue;
    const matches = route.segments.every((fixed, i) => {
      const segment = segments[i]!;
      return fixed === null ? segment !== '' : decodeSegment(segment) === fixed;
    });
    if (matches) return route.template;
  }
  return UNMATCHED_ROUTE;
}
