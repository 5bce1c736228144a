import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedMethods, matchRoute, ROUTES, UNMATCHED_ROUTE, routeLabel } from './route-table.mjs';

const ROUTE_TEMPLATES = ROUTES.map((r) => r.template);

const url = (p: string) => `http://127.0.0.1:3000${p}`;

/** The route files of the two API families, `app/v1/jobs/[id]/route.ts` as `/v1/jobs/{id}`; catch-alls left out. */
function routeFilesUnder(dir: string): { template: string; file: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name.startsWith('[...') ? [] : routeFilesUnder(path.posix.join(dir, e.name));
    if (e.name !== 'route.ts') return [];
    return [{ template: `/${dir.replace(/^app\//, '').replace(/\[([^\]]+)\]/g, '{$1}')}`, file: path.posix.join(dir, e.name) }];
  });
}
const ROUTE_FILES = [...routeFilesUnder('app/v1'), ...routeFilesUnder('app/api/v1')];
const templatesUnder = (dir: string) => routeFilesUnder(dir).map((f) => f.template);

const METHOD = '(GET|HEAD|OPTIONS|POST|PUT|PATCH|DELETE)';
/** The HTTP methods a route file exports: `export const GET`, `export async function POST`, `export { handler as PUT }`. */
function exportedMethods(source: string): string[] {
  const methods = new Set<string>();
  for (const m of source.matchAll(new RegExp(`^export\\s+(?:const|let|(?:async\\s+)?function)\\s+${METHOD}\\b`, 'gm'))) methods.add(m[1]!);
  for (const block of source.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    for (const m of block[1]!.matchAll(new RegExp(`(?:\\bas\\s+|^\\s*|,\\s*)${METHOD}\\s*(?=,|$)`, 'g'))) methods.add(m[1]!);
  }
  return [...methods].sort();
}

describe('the route table', () => {
  it('has exactly one template per /v1 and /api/v1 route file under app/', () => {
    const files = [...templatesUnder('app/v1'), ...templatesUnder('app/api/v1')].sort();
    expect([...ROUTE_TEMPLATES].sort()).toEqual(files);
  });

  it('lists for each route exactly the methods its route file exports', () => {
    expect(exportedMethods('export const GET = a;\nexport async function POST() {}\nexport { h as PUT, h as DELETE };')).toEqual([
      'DELETE',
      'GET',
      'POST',
      'PUT',
    ]);
    for (const { template, file } of ROUTE_FILES) {
      const route = ROUTES.find((r) => r.template === template);
      expect([...(route?.methods ?? [])].sort(), file).toEqual(exportedMethods(readFileSync(file, 'utf8')));
    }
  });

  it("allows a route's exported methods, HEAD with GET, and OPTIONS, sorted as Next lists them", () => {
    expect(allowedMethods(matchRoute('/v1/health')!)).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(allowedMethods(matchRoute('/api/v1/session')!)).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST']);
    expect(allowedMethods(matchRoute('/v1/moderate/text')!)).toEqual(['OPTIONS', 'POST']);
  });

  it('labels a request with the template of the route that answers it', () => {
    const id = '3f2b6c1e-0000-4000-8000-000000000001';
    expect(routeLabel(url(`/v1/jobs/${id}`))).toBe('/v1/jobs/{id}');
    expect(routeLabel(url(`/v1/jobs/${id}/results?format=csv`))).toBe('/v1/jobs/{id}/results');
    expect(routeLabel(url(`/v1/jobs/${id}/cancel`))).toBe('/v1/jobs/{id}/cancel');
    expect(routeLabel(url('/v1/moderate/text?x=1'))).toBe('/v1/moderate/text');
    expect(routeLabel(url(`/api/v1/persons/${id}/faces/${id}/image`))).toBe('/api/v1/persons/{person_id}/faces/{face_id}/image');
    expect(routeLabel(url('/api/v1/policy/versions/3/revert'))).toBe('/api/v1/policy/versions/{version}/revert');
    expect(routeLabel(url('/api/v1/persons/a%2Fb'))).toBe('/api/v1/persons/{person_id}');
  });

  it('prefers a fixed segment over a parameter, as Next routes them', () => {
    expect(routeLabel(url('/api/v1/reviews/audit'))).toBe('/api/v1/reviews/audit');
    expect(routeLabel(url('/api/v1/reviews/audit/export'))).toBe('/api/v1/reviews/audit/export');
    expect(routeLabel(url('/api/v1/reviews/r1/undo'))).toBe('/api/v1/reviews/{review_id}/undo');
  });

  it('gives every path no route answers the one unmatched label', () => {
    for (const p of ['/', '/v1', '/v1/jobs/', '/v1/jobs//results', '/v1/jobs/a/b', '/api/v1/no/such/path', '/metrics', '/v2/jobs/x']) {
      expect(routeLabel(url(p)), p).toBe(UNMATCHED_ROUTE);
    }
    expect(routeLabel('not a url')).toBe(UNMATCHED_ROUTE);
  });

  it('never returns text from the request: any path gets a template of the table or unmatched', () => {
    const labels = new Set<string>([...ROUTE_TEMPLATES, UNMATCHED_ROUTE]);
    const segment = fc.oneof(fc.constantFrom('v1', 'api', 'jobs', 'results', 'persons', 'faces', 'reviews', 'audit', ''), fc.webSegment());
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 7 }), fc.webQueryParameters(), (segments, query) => {
        expect(labels.has(routeLabel(url(`/${segments.join('/')}?${query}`)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
