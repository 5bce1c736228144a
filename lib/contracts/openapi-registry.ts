/**
 * The OpenAPI 3.1 document builder behind openapi.ts, on zod's own JSON Schema output
 * (`z.toJSONSchema`, docs/decisions/192-openapi-from-zod.md). The contract files register their
 * schemas and paths; `generateDocument` converts every zod schema in two passes of zod's
 * multi-schema form: requests (bodies, path, query and header parameters) in zod's input view,
 * responses in its output view. They differ where a schema has a default, a coercion or a transform.
 *
 * - `register(refId, schema)` makes the schema `#/components/schemas/<refId>`: every use of it,
 *   in a path or nested in another schema, is a `$ref`. Registering one schema under a second name
 *   registers a copy (returned), whose component is a `$ref` to the first.
 * - A component that requests and responses both use, and whose two views differ, is written twice:
 *   `<refId>` (the response view) and `<refId>Input` (the request view).
 * - Objects that strip unknown keys are written without `additionalProperties`, as the API answers:
 *   a client must accept fields it does not know yet. `.strict()` objects keep `false`.
 */
import { z } from 'zod';

/** A JSON Schema written out by hand (a body or response that is no zod schema). */
export type JsonSchema = Record<string, unknown>;
type Schema = z.ZodType | JsonSchema;
type Content = Record<string, { schema: Schema }>;

export interface RouteConfig {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
  /** `/v1/jobs/{id}`: each `{name}` is a key of `request.params`. */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  request?: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    headers?: z.ZodObject;
    body?: { description?: string; required?: boolean; content: Content };
  };
  /** By status; a status spread in conditionally may be undefined. */
  responses: Partial<Record<number | string, { description: string; content?: Content }>>;
}

/** The component kinds other than `schemas` (which `register` fills). */
type ComponentType = 'securitySchemes' | 'parameters' | 'headers' | 'examples' | 'links' | 'callbacks' | 'requestBodies' | 'responses';

/** OpenAPI's pattern for component names; the ids of unregistered path-level schemas fall outside it. */
const COMPONENT_NAME = /^[a-zA-Z0-9._-]+$/;
const SCHEMA_REF = '#/components/schemas/';
/** What an unrepresentable zod schema (a transform's output, a date...) is written as until it proves to be used. */
const UNREPRESENTABLE = 'x-zod-unrepresentable';

type View = 'input' | 'output';
type Json = unknown;

const isZod = (schema: Schema): schema is z.ZodType => schema instanceof z.ZodType;

/** Each `$ref` to a schema component in `json`, by component name. */
function refsIn(json: Json, out = new Set<string>()): Set<string> {
  if (Array.isArray(json)) for (const item of json) refsIn(item, out);
  else if (json && typeof json === 'object') {
    for (const [key, value] of Object.entries(json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) out.add(value.slice(SCHEMA_REF.length));
      else refsIn(value, out);
    }
  }
  return out;
}

/** `json` with each schema `$ref` passed through `rewrite` (a string: the new name; an object: the schema to put there). */
function mapRefs(json: Json, rewrite: (name: string) => string | Json): Json {
  if (Array.isArray(json)) return json.map((item) => mapRefs(item, rewrite));
  if (!json || typeof json !== 'object') return json;
  const ref = (json as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
    const to = rewrite(ref.slice(SCHEMA_REF.length));
    if (typeof to !== 'string') {
      const { $ref: _, ...siblings } = json as JsonSchema;
      return { ...(to as JsonSchema), ...(mapRefs(siblings, rewrite) as JsonSchema) };
    }
    return { ...(mapRefs({ ...json, $ref: undefined }, rewrite) as JsonSchema), $ref: SCHEMA_REF + to };
  }
  return Object.fromEntries(
    Object.entries(json)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, mapRefs(value, rewrite)]),
  );
}

/** Throws zod's message for the first unrepresentable schema left in the document. */
function assertRepresentable(json: Json, path: string[] = []): void {
  if (!json || typeof json !== 'object') return;
  for (const [key, value] of Object.entries(json)) {
    if (key === UNREPRESENTABLE) throw new Error(`OpenAPI document at ${path.join(' > ')}: ${String(value)}`);
    assertRepresentable(value, [...path, key]);
  }
}

export class OpenAPIRegistry {
  /** Registered schemas by component name, in registration order, with the schema each was registered as. */
  private readonly components = new Map<string, { source: z.ZodType; schema: z.ZodType }>();
  private readonly refIds = new Map<z.ZodType, string>();
  private readonly routes: RouteConfig[] = [];
  private readonly otherComponents: Partial<Record<ComponentType, Record<string, unknown>>> = {};

  register<T extends z.ZodType>(refId: string, schema: T): T {
    if (!COMPONENT_NAME.test(refId)) throw new Error(`OpenAPI component name ${JSON.stringify(refId)} is not [a-zA-Z0-9._-]+`);
    const existing = this.components.get(refId);
    if (existing) {
      if (existing.source === schema) return existing.schema as T;
      throw new Error(`OpenAPI component ${refId} is registered twice with different schemas`);
    }
    // One zod schema has one component; a second name gets a copy (zod writes it as a $ref to the first).
    const registered = this.refIds.has(schema) ? (schema.clone() as T) : schema;
    this.components.set(refId, { source: schema, schema: registered });
    this.refIds.set(registered, refId);
    return registered;
  }

  registerPath(route: RouteConfig): void {
    this.routes.push(route);
  }

  registerComponent(type: ComponentType, name: string, component: unknown): void {
    this.otherComponents[type] = { ...this.otherComponents[type], [name]: component };
  }

  generateDocument<Config extends { openapi: string; info: { title: string; version: string } & JsonSchema }>(config: Config) {
    const views = { input: new ViewSchemas(this.refIds, 'input'), output: new ViewSchemas(this.refIds, 'output') };
    const content = (c: Content | undefined, view: ViewSchemas) =>
      c && Object.fromEntries(Object.entries(c).map(([mime, { schema }]) => [mime, { schema: view.add(schema) }]));

    // Pass 1: hand every path-level zod schema to its view; the JSON comes back as placeholders.
    const operations = this.routes.map((route) => {
      const { params, query, headers, body } = route.request ?? {};
      const parameters = (['path', 'query', 'header'] as const).flatMap((where) => {
        const object = { path: params, query, header: headers }[where];
        return object ? [{ where, object: views.input.add(object) }] : [];
      });
      return {
        route,
        parameters,
        body: body && { ...body, content: content(body.content, views.input) },
        responses: Object.entries(route.responses).flatMap(([status, r]) =>
          r ? [[status, { ...r, content: content(r.content, views.output) }] as const] : [],
        ),
      };
    });

    // Pass 2: convert; then the components each view uses.
    const input = views.input.convert();
    const output = views.output.convert();
    const schemas = components(this.components.keys(), input, output);
    const requestSchema = (json: Json) => schemas.request(input.resolve(json));

    const paths: Record<string, Record<string, unknown>> = {};
    for (const { route, parameters, body, responses } of operations) {
      const { method, path, summary, description, tags, security } = route;
      const params = parameters.flatMap(({ where, object }) => {
        const resolved = requestSchema(object) as { $ref?: string };
        // A registered parameter object: its properties are the parameters.
        const json = (resolved.$ref ? schemas.all[resolved.$ref.slice(SCHEMA_REF.length)] : resolved) as {
          properties?: Record<string, JsonSchema>;
          required?: string[];
        };
        return Object.entries(json.properties ?? {}).map(([name, schema]) => {
          const required = json.required?.includes(name) ?? false;
          if (where === 'path' && !required) throw new Error(`OpenAPI ${method} ${path}: path parameter ${name} must not be optional`);
          const text = typeof schema.description === 'string' ? { description: schema.description } : {};
          return { name, in: where, required, ...text, schema };
        });
      });
      const mapContent = (c: Record<string, { schema: Json }> | undefined, map: (json: Json) => Json) =>
        c && Object.fromEntries(Object.entries(c).map(([mime, { schema }]) => [mime, { schema: map(schema) }]));
      paths[path] = {
        ...paths[path],
        [method]: {
          summary,
          ...(description === undefined ? {} : { description }),
          ...(tags ? { tags } : {}),
          ...(security ? { security } : {}),
          ...(params.length ? { parameters: params } : {}),
          ...(body ? { requestBody: { ...body, content: mapContent(body.content, requestSchema) } } : {}),
          responses: Object.fromEntries(
            responses.map(([status, r]) => [
              status,
              { ...r, ...(r.content ? { content: mapContent(r.content, (json) => output.resolve(json)) } : {}) },
            ]),
          ),
        },
      };
    }
    const document = { ...config, components: { schemas: schemas.all, ...this.otherComponents }, paths };
    assertRepresentable(document);
    return document;
  }
}

/**
 * One view's schemas: the components and the path-level schemas of that side, converted together
 * by `z.toJSONSchema(registry, { uri })`. A path-level schema gets a placeholder id (no valid
 * component name) and is written inline where it is used.
 */
class ViewSchemas {
  private readonly registry = z.registry<{ id: string }>();
  private readonly inline = new Map<z.ZodType, string>();
  /** The component names and placeholder ids the paths use. */
  readonly roots = new Set<string>();

  constructor(
    refIds: ReadonlyMap<z.ZodType, string>,
    private readonly io: View,
  ) {
    for (const [schema, id] of refIds) this.registry.add(schema, { id });
  }

  /** A placeholder `$ref` for `schema`, resolved after `convert`; a plain JSON Schema as it is. */
  add(schema: Schema): Json {
    if (!isZod(schema)) return schema;
    const id = this.registry.get(schema)?.id ?? this.inline.get(schema) ?? `path schema ${this.inline.size}`;
    if (!this.registry.has(schema)) {
      this.inline.set(schema, id);
      this.registry.add(schema, { id });
    }
    this.roots.add(id);
    return { $ref: SCHEMA_REF + id };
  }

  convert() {
    const { schemas } = z.toJSONSchema(this.registry, {
      io: this.io,
      uri: (id) => SCHEMA_REF + id,
      unrepresentable: ({ message }) => ({ [UNREPRESENTABLE]: message }),
      override: ({ zodSchema, jsonSchema }) => {
        const def = zodSchema._zod.def;
        if (def.type === 'object' && !(def as z.core.$ZodObjectDef).catchall) delete jsonSchema.additionalProperties;
      },
    });
    if ('__shared' in schemas) throw new Error('OpenAPI: a recursive schema must be registered (registry.register) to be written');
    const bodies = new Map<string, Json>();
    for (const [id, { $id: _, $schema: __, ...body }] of Object.entries(schemas)) bodies.set(id, body);
    const inlineIds = new Set(this.inline.values());
    /** `json` with every placeholder replaced by the path-level schema it stands for. */
    const resolve = (json: Json, within: string[] = []): Json =>
      mapRefs(json, (name) => {
        if (!inlineIds.has(name)) return name;
        if (within.includes(name)) throw new Error('OpenAPI: a recursive schema must be registered (registry.register) to be written');
        return resolve(bodies.get(name), [...within, name]);
      });
    return { bodies, resolve, roots: refsIn(resolve([...this.roots].map((id) => ({ $ref: SCHEMA_REF + id })))) };
  }
}

type Converted = ReturnType<ViewSchemas['convert']>;

/**
 * The schema components: each registered schema in the view that uses it (the output view when
 * both or neither do), plus `<name>Input` for one whose request view differs from its response view.
 */
function components(names: Iterable<string>, input: Converted, output: Converted) {
  const all = [...names];
  const body = (view: Converted, name: string) => view.resolve(view.bodies.get(name));
  const reachable = (view: Converted, roots: string[]) => {
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name) || !all.includes(name)) return;
      seen.add(name);
      for (const ref of refsIn(body(view, name))) visit(ref);
    };
    for (const root of roots) visit(root);
    return seen;
  };
  const usedByRequests = reachable(input, [...input.roots]);
  const usedByResponses = reachable(output, [...output.roots]);

  // A component needs an input twin when both sides use it and its input view, refs included, differs.
  const twins = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of all) {
      if (twins.has(name) || !usedByRequests.has(name) || !usedByResponses.has(name)) continue;
      const inBody = body(input, name);
      if (JSON.stringify(inBody) !== JSON.stringify(body(output, name)) || [...refsIn(inBody)].some((ref) => twins.has(ref))) {
        twins.add(name);
        grew = true;
      }
    }
  }
  for (const name of twins)
    if (all.includes(`${name}Input`)) throw new Error(`OpenAPI component ${name}Input is registered: ${name} needs the name`);
  const inputName = (name: string) => (twins.has(name) ? `${name}Input` : name);
  const request = (json: Json) => mapRefs(json, inputName);

  const schemas: Record<string, Json> = {};
  for (const name of all) {
    if (!usedByRequests.has(name) || twins.has(name)) schemas[name] = body(output, name);
    if (usedByRequests.has(name)) schemas[inputName(name)] = request(body(input, name));
  }
  return { all: schemas, request };
}
