import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES } from '@/lib/http/route-table.mjs';
import { buildOpenApiDocument } from './openapi';
import { OpenAPIRegistry } from './openapi-registry';

const info = { title: 'Test', version: '1' };
const json = (schema: z.ZodType) => ({ description: 'ok', content: { 'application/json': { schema } } });

type Operation = {
  parameters?: { name: string; in: string; required: boolean; description?: string; schema: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
const operation = (doc: { paths: Record<string, Record<string, unknown>> }, method: string, path: string) =>
  doc.paths[path]?.[method] as Operation;

/** Every `$ref` in `json`. */
function refs(json: unknown): string[] {
  if (Array.isArray(json)) return json.flatMap(refs);
  if (!json || typeof json !== 'object') return [];
  return Object.entries(json).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refs(value)));
}

describe('OpenAPIRegistry', () => {
  it('writes a registered schema once, as a component, and every use of it, top-level or nested, as a $ref', () => {
    const registry = new OpenAPIRegistry();
    const item = registry.register('Item', z.object({ id: z.uuid(), name: z.string().describe('The name.') }));
    const list = registry.register('ItemList', z.object({ items: z.array(item), first: item.optional() }));
    registry.registerPath({ method: 'get', path: '/items', summary: 'List', responses: { 200: json(list) } });
    registry.registerPath({ method: 'get', path: '/items/first', summary: 'First', responses: { 200: json(item) } });
    const doc = registry.generateDocument({ openapi: '3.1.0', info });

    expect(Object.keys(doc.components.schemas)).toEqual(['Item', 'ItemList']);
    expect(doc.components.schemas.Item).toEqual({
      type: 'object',
      properties: { id: expect.objectContaining({ type: 'string', format: 'uuid' }), name: { type: 'string', description: 'The name.' } },
      required: ['id', 'name'],
    });
    expect(doc.components.schemas.ItemList).toMatchObject({
      properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } }, first: { $ref: '#/components/schemas/Item' } },
      required: ['items'],
    });
    expect(operation(doc, 'get', '/items').responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ItemList',
    });
    expect(operation(doc, 'get', '/items/first').responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Item',
    });
  });

  it('writes path, query and header parameters with `required` from their optionality and their descriptions', () => {
    const registry = new OpenAPIRegistry();
    registry.registerPath({
      method: 'delete',
      path: '/items/{item_id}',
      summary: 'Delete',
      security: [{ apiKey: [] }],
      request: {
        params: z.object({ item_id: z.uuid() }),
        query: z.object({
          force: z.enum(['true', 'false']).optional().describe('Also when in use.'),
          reason: z.string(),
          limit: z.coerce.number().int().default(20),
        }),
        headers: z.object({ 'if-match': z.string().optional() }),
      },
      responses: { 204: { description: 'Deleted.' } },
    });
    const doc = registry.generateDocument({ openapi: '3.1.0', info });
    const op = operation(doc, 'delete', '/items/{item_id}');

    expect(op).toMatchObject({ summary: 'Delete', security: [{ apiKey: [] }], responses: { 204: { description: 'Deleted.' } } });
    expect(op.parameters?.map(({ name, in: where, required, description }) => ({ name, in: where, required, description }))).toEqual([
      { name: 'item_id', in: 'path', required: true, description: undefined },
      { name: 'force', in: 'query', required: false, description: 'Also when in use.' },
      { name: 'reason', in: 'query', required: true, description: undefined },
      // A default makes a parameter optional to the client (zod's input view).
      { name: 'limit', in: 'query', required: false, description: undefined },
      { name: 'if-match', in: 'header', required: false, description: undefined },
    ]);
    expect(op.parameters?.find((p) => p.name === 'force')?.schema).toEqual({
      type: 'string',
      enum: ['true', 'false'],
      description: 'Also when in use.',
    });
    expect(op.parameters?.find((p) => p.name === 'limit')?.schema).toMatchObject({ type: 'integer', default: 20 });
  });

  it('refuses an optional path parameter', () => {
    const registry = new OpenAPIRegistry();
    registry.registerPath({
      method: 'get',
      path: '/items/{id}',
      summary: 'One',
      request: { params: z.object({ id: z.string().optional() }) },
      responses: { 200: { description: 'ok' } },
    });
    expect(() => registry.generateDocument({ openapi: '3.1.0', info })).toThrow(/path parameter id must not be optional/);
  });

  it('leaves optional fields out of `required`, and reads request bodies in the input view, responses in the output view', () => {
    const registry = new OpenAPIRegistry();
    const settings = z.object({ note: z.string().optional(), page_size: z.number().int().default(50), name: z.string() });
    const request = z.object({ flag: z.enum(['1', '0']).transform((v) => v === '1'), nickname: z.string().nullable().optional() });
    registry.registerPath({
      method: 'post',
      path: '/settings',
      summary: 'Change',
      request: { body: { required: true, content: { 'application/json': { schema: request } } } },
      responses: { 200: json(settings) },
    });
    const doc = registry.generateDocument({ openapi: '3.1.0', info });
    const op = operation(doc, 'post', '/settings');

    const body = op.requestBody?.content['application/json']?.schema;
    expect(body).toMatchObject({ properties: { flag: { type: 'string', enum: expect.arrayContaining(['1', '0']) } }, required: ['flag'] });
    expect(op.requestBody?.required).toBe(true);
    // The answer always carries page_size (its default), never necessarily note.
    expect(op.responses['200']?.content?.['application/json']?.schema).toMatchObject({ required: ['page_size', 'name'] });
  });

  it('writes a component both sides use, and whose input view differs, twice: <name> for responses and <name>Input for requests', () => {
    const registry = new OpenAPIRegistry();
    const prefs = registry.register('Prefs', z.object({ page_size: z.number().int().default(50) }));
    const user = registry.register('User', z.object({ prefs }));
    const same = registry.register('Same', z.object({ id: z.string() }));
    registry.registerPath({
      method: 'put',
      path: '/user',
      summary: 'Replace',
      request: { body: { content: { 'application/json': { schema: z.object({ user, same }) } } } },
      responses: { 200: json(z.object({ user, same })) },
    });
    const doc = registry.generateDocument({ openapi: '3.1.0', info });

    expect(Object.keys(doc.components.schemas)).toEqual(['Prefs', 'PrefsInput', 'User', 'UserInput', 'Same']);
    expect(doc.components.schemas.Prefs).toMatchObject({ required: ['page_size'] });
    expect(doc.components.schemas.PrefsInput).not.toHaveProperty('required');
    expect(doc.components.schemas.UserInput).toMatchObject({ properties: { prefs: { $ref: '#/components/schemas/PrefsInput' } } });
    expect(operation(doc, 'put', '/user').requestBody?.content['application/json']?.schema).toMatchObject({
      properties: { user: { $ref: '#/components/schemas/UserInput' }, same: { $ref: '#/components/schemas/Same' } },
    });
    expect(operation(doc, 'put', '/user').responses['200']?.content?.['application/json']?.schema).toMatchObject({
      properties: { user: { $ref: '#/components/schemas/User' }, same: { $ref: '#/components/schemas/Same' } },
    });
  });

  it('keeps `additionalProperties: false` only for strict objects, passes plain JSON Schemas through, and registers other components', () => {
    const registry = new OpenAPIRegistry();
    registry.registerPath({
      method: 'post',
      path: '/upload',
      summary: 'Upload',
      request: { body: { content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'image/png' } } } } },
      responses: { 200: json(z.object({ a: z.strictObject({ b: z.string() }), c: z.object({ d: z.string() }) })) },
    });
    registry.registerComponent('securitySchemes', 'apiKey', { type: 'http', scheme: 'bearer' });
    const doc = registry.generateDocument({ openapi: '3.1.0', info });
    const op = operation(doc, 'post', '/upload');

    expect(op.requestBody?.content['application/octet-stream']?.schema).toEqual({ type: 'string', contentMediaType: 'image/png' });
    const answer = op.responses['200']?.content?.['application/json']?.schema as { properties: Record<string, object> };
    expect(answer).not.toHaveProperty('additionalProperties');
    expect(answer.properties.a).toHaveProperty('additionalProperties', false);
    expect(answer.properties.c).not.toHaveProperty('additionalProperties');
    expect(doc.components.securitySchemes).toEqual({ apiKey: { type: 'http', scheme: 'bearer' } });
  });

  it('gives a schema registered under a second name a component of its own that refers to the first', () => {
    const registry = new OpenAPIRegistry();
    const schema = z.object({ ok: z.boolean() });
    const first = registry.register('Undo', schema);
    const second = registry.register('Reopen', schema);
    expect(first).toBe(schema);
    expect(second).not.toBe(schema);
    expect(registry.register('Reopen', schema)).toBe(second);
    expect(() => registry.register('Undo', z.object({}))).toThrow(/registered twice/);
    registry.registerPath({ method: 'post', path: '/reopen', summary: 'Reopen', responses: { 200: json(second) } });
    const doc = registry.generateDocument({ openapi: '3.1.0', info });

    expect(doc.components.schemas.Reopen).toEqual({ $ref: '#/components/schemas/Undo' });
    expect(operation(doc, 'post', '/reopen').responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Reopen',
    });
  });

  it('refuses a schema that JSON Schema cannot express where the document uses it', () => {
    const registry = new OpenAPIRegistry();
    registry.registerPath({
      method: 'get',
      path: '/when',
      summary: 'When',
      responses: { 200: json(z.object({ at: z.string().transform((s) => new Date(s)) })) },
    });
    expect(() => registry.generateDocument({ openapi: '3.1.0', info })).toThrow(/Transforms cannot be represented/);
  });
});

describe('the document of the contracts', () => {
  const doc = buildOpenApiDocument({ maxTextChars: 10_000, maxBatchItems: 100 }, 'test') as unknown as {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };

  it('describes every method of every /v1 and /api/v1 route file, and GET /metrics', () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    const routes = [...ROUTES.flatMap((r) => r.methods.map((m) => `${m} ${r.template}`)), 'GET /metrics'];
    expect(routes.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('is OpenAPI 3.1 whose every $ref names a component, with the API key scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    const missing = refs(doc).filter((ref) => !(ref.replace('#/components/schemas/', '') in doc.components.schemas));
    expect(missing).toEqual([]);
    expect(doc.components.securitySchemes).toHaveProperty('apiKey');
    expect(doc.components.schemas).toHaveProperty('ErrorEnvelope');
  });
});
