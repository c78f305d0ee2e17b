// The tools' input schemas come from the routes' own schemas (docs/mcp.md, "Tools"): an onRoute
// hook keeps what each route validates with (params, query string, body) and its scope, and a
// tool's input schema is those parts with every $ref to a shared schema inlined
// (src/catalogue/schemas.ts), so that it is one self-contained JSON Schema object as MCP clients
// expect. Nothing is written twice.
import type { RouteOptions } from 'fastify';
import { requiredScope, type Scope } from '../api/route.js';
import { inlineRefs, type JsonSchema } from '../catalogue/schemas.js';

/** What a tool needs of a route: its schemas, as registered, and the scope it asks for. */
export interface RouteInfo {
  method: string;
  url: string;
  scope: Scope;
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
}

/** The routes of the app, filled by an onRoute hook while the modules register. */
export class RouteIndex {
  private readonly routes = new Map<string, RouteInfo>();

  add(route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>): void {
    const schema = (route.schema ?? {}) as { params?: unknown; querystring?: unknown; body?: unknown };
    const cfg = (route.config ?? {}) as { scope?: Scope };
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      this.routes.set(`${method} ${route.url}`, {
        method,
        url: route.url,
        scope: requiredScope(method, cfg.scope),
        params: schema.params,
        querystring: schema.querystring,
        body: schema.body,
      });
    }
  }

  get(method: string, url: string): RouteInfo {
    const r = this.routes.get(`${method} ${url}`);
    if (!r) throw new Error(`MCP: no route ${method} ${url}`);
    return r;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * An object schema whose alternatives are a top-level `oneOf` of objects (e.g. `{tool, input}`
 * per utility) as one object: MCP clients, and the models behind them, take only an object at
 * the root of a tool's input. A property every branch fixes with `const` (the tag) becomes an
 * `enum`; one the branches give different schemas becomes a `oneOf` of them (each titled); the
 * required ones are those every branch requires. The API still checks the exact branch.
 */
export function hoistOneOf(schema: JsonSchema): JsonSchema {
  const branches = schema.oneOf;
  if (!Array.isArray(branches) || !branches.every((b) => (b as JsonSchema).type === 'object')) return schema;
  const objects = branches as JsonSchema[];
  const names = [...new Set(objects.flatMap((b) => Object.keys((b.properties as JsonSchema | undefined) ?? {})))];
  const properties: JsonSchema = {};
  for (const name of names) {
    const variants = objects.map((b) => ((b.properties as JsonSchema | undefined) ?? {})[name] as JsonSchema | undefined);
    const present = variants.filter((v): v is JsonSchema => v !== undefined);
    if (present.every((v) => 'const' in v)) {
      properties[name] = { type: 'string', enum: present.map((v) => v.const) };
    } else {
      const distinct = present.filter((v, i) => present.findIndex((w) => same(v, w)) === i);
      properties[name] = distinct.length === 1 ? distinct[0] : { oneOf: distinct };
    }
  }
  const required = names.filter((n) => objects.every((b) => ((b.required as string[] | undefined) ?? []).includes(n)));
  const { oneOf: _oneOf, ...rest } = schema;
  return { ...rest, type: 'object', properties, required, additionalProperties: false };
}

/**
 * A tool's input schema: the route's path parameters, query string and body (each inlined and
 * an object), merged into one object, plus the tool's own arguments (`extra`, e.g. a wait's
 * timeout), which the tool handles and never sends.
 */
export function toolInputSchema(route: RouteInfo | null, lookup: (id: string) => unknown, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  let closed = true;
  let description: unknown;
  for (const part of route ? [route.params, route.querystring, route.body] : []) {
    if (part === undefined) continue;
    const s = hoistOneOf(inlineRefs(part, lookup) as JsonSchema);
    if (s.type !== 'object') throw new Error(`MCP: ${route!.method} ${route!.url} takes a ${String(s.type)}, not an object`);
    Object.assign(properties, (s.properties as JsonSchema | undefined) ?? {});
    required.push(...((s.required as string[] | undefined) ?? []));
    if (s.additionalProperties !== false) closed = false;
    description ??= s.description;
  }
  Object.assign(properties, extra);
  return {
    type: 'object',
    ...(typeof description === 'string' ? { description } : {}),
    properties,
    ...(required.length ? { required: [...new Set(required)] } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}
