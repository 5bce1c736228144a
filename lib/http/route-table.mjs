// The route table of the two API families: every path template a /v1 or /api/v1 route file
// answers (`app/v1/jobs/[id]/route.ts` is `/v1/jobs/{id}`) and the methods that file exports.
//
// Labels: the route wrappers label a request's metrics and log line with `routeLabel(request.url)`:
// the template of the route that answers it, or `unmatched` for every other path. A label is
// therefore always one of this table's strings, never text the client wrote: a client sending
// thousands of distinct paths (an 8,000-character id each) adds no series to /metrics and no long
// field to the logs.
//
// Methods: server.mjs answers a method a route does not export with 405 and `Allow` before Next
// sees it (method-not-allowed.mjs); Next answered TRACE with a 500 and a logged stack.
//
// `route-table.test.ts` checks the table against the route files under app/, templates and
// exported methods. Plain JavaScript: server.mjs runs outside the Next bundles.

/** The label of every path no route of the table answers (the /api/v1 JSON 404, a path Next did not map). */
export const UNMATCHED_ROUTE = 'unmatched';

export const ROUTES = [
  { template: '/v1/health', methods: ['GET'] },
  { template: '/v1/models', methods: ['GET'] },
  { template: '/v1/moderate/text', methods: ['POST'] },
  { template: '/v1/moderate/batch', methods: ['POST'] },
  { template: '/v1/jobs', methods: ['GET', 'POST'] },
  { template: '/v1/jobs/{id}', methods: ['GET'] },
  { template: '/v1/jobs/{id}/cancel', methods: ['POST'] },
  { template: '/v1/jobs/{id}/results', methods: ['GET'] },
  { template: '/api/v1/session', methods: ['GET', 'POST', 'DELETE'] },
  { template: '/api/v1/sessions', methods: ['GET'] },
  { template: '/api/v1/sessions/{session_id}', methods: ['DELETE'] },
  { template: '/api/v1/register', methods: ['POST'] },
  { template: '/api/v1/recognize', methods: ['POST'] },
  { template: '/api/v1/persons', methods: ['GET'] },
  { template: '/api/v1/persons/{person_id}', methods: ['GET', 'PATCH', 'DELETE'] },
  { template: '/api/v1/persons/{person_id}/faces', methods: ['GET', 'POST'] },
  { template: '/api/v1/persons/{person_id}/faces/{face_id}', methods: ['DELETE'] },
  { template: '/api/v1/persons/{person_id}/faces/{face_id}/image', methods: ['GET'] },
  { template: '/api/v1/reviews', methods: ['GET'] },
  { template: '/api/v1/reviews/config', methods: ['GET'] },
  { template: '/api/v1/reviews/not-queued', methods: ['GET'] },
  { template: '/api/v1/reviews/audit', methods: ['GET'] },
  { template: '/api/v1/reviews/audit/export', methods: ['GET'] },
  { template: '/api/v1/reviews/backlog/pull', methods: ['POST'] },
  { template: '/api/v1/reviews/claims', methods: ['GET'] },
  { template: '/api/v1/reviews/{review_id}/claim', methods: ['POST'] },
  { template: '/api/v1/reviews/{review_id}/release', methods: ['POST'] },
  { template: '/api/v1/reviews/{review_id}/decision', methods: ['POST'] },
  { template: '/api/v1/reviews/{review_id}/explain', methods: ['GET'] },
  { template: '/api/v1/reviews/{review_id}/reopen', methods: ['POST'] },
  { template: '/api/v1/reviews/{review_id}/undo', methods: ['POST'] },
  { template: '/api/v1/policy', methods: ['GET'] },
  { template: '/api/v1/policy/export', methods: ['GET'] },
  { template: '/api/v1/policy/impact', methods: ['GET'] },
  { template: '/api/v1/policy/versions', methods: ['GET', 'POST'] },
  { template: '/api/v1/policy/versions/{version}/revert', methods: ['POST'] },
];

const isParameter = (segment) => segment.startsWith('{') && segment.endsWith('}');

/**
 * Each route with its segments; `null` stands for a parameter (`{id}`), which matches any one
 * non-empty segment. A template matches only paths of its own segment count; where two could match
 * one path, a fixed segment wins over a parameter at the first place they differ, as in Next's
 * routing (`/api/v1/reviews/audit` is not `/api/v1/reviews/{review_id}`).
 */
const COMPILED = ROUTES.map((route) => ({
  route,
  segments: route.template
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

function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route of the table that answers `pathname` (no query), or undefined. */
export function matchRoute(pathname) {
  const segments = pathname.split('/').slice(1);
  for (const { route, segments: pattern } of COMPILED) {
    if (pattern.length !== segments.length) continue;
    const matches = pattern.every((fixed, i) => {
      const segment = segments[i];
      return fixed === null ? segment !== '' : decodeSegment(segment) === fixed;
    });
    if (matches) return route;
  }
  return undefined;
}

/** The route label of a request URL: its route's template from ROUTES, or UNMATCHED_ROUTE. */
export function routeLabel(url) {
  let pathname;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return UNMATCHED_ROUTE;
  }
  return matchRoute(pathname)?.template ?? UNMATCHED_ROUTE;
}

/**
 * The methods a route answers, as its `Allow` header lists them: those its file exports, HEAD
 * where it exports GET (Next answers HEAD with GET's handler) and OPTIONS (Next answers it, 204
 * with the same list), sorted as Next sorts them.
 */
export function allowedMethods(route) {
  const methods = new Set([...route.methods, 'OPTIONS']);
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
