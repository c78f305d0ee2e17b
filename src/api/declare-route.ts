// One route declared by its distinct parts (docs/architecture.md, "Recipes"): its method and
// path, the operationId, summary and schemas the OpenAPI document shows, its config, and its
// handler (Fastify's, given the services first). What every route of a module shares (its tags,
// its config) is given once to routeFactory; the route is a RoutePlugin, listed in a
// routeSequence.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema, type TRef, type TRefUnsafe } from '@sinclair/typebox';
import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifySchema,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { Services } from '../services.js';
import type { RoutePlugin } from './module.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** The method and the path below /api/v1, as the docs write them: `GET /workflows/runs/:run_id`. */
export type Endpoint = `${Method} /${string}`;

/** Fastify's handler of a route whose schema is S: its request and return value typed by S's TypeBox schemas. */
type FastifyHandler<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  TypeBoxTypeProvider
>;

/** A route's handler: Fastify's, given the services first. */
export type Handler<S extends FastifySchema> = (services: Services, ...args: Parameters<FastifyHandler<S>>) => ReturnType<FastifyHandler<S>>;

export interface RouteParts<P, Q, B, R> {
  summary: string;
  /** The operation's longer description, when the summary is not enough. */
  description?: string;
  params?: P;
  querystring?: Q;
  body?: B;
  /** The responses by status (ok, created, or a map of them; problems are added by src/http/openapi-document.ts). */
  response: R;
  /** Merged over the module's config (auth, scope, idempotency, input: src/api/route.ts). */
  config?: FastifyContextConfig;
  bodyLimit?: number;
  handler: Handler<{ params: P; querystring: Q; body: B; response: R }>;
}

export interface RouteDefaults {
  tags: string[];
  config?: FastifyContextConfig;
}

/**
 * The route declarer of a module: every route it declares carries `defaults`; `idempotent`
 * declares a route that takes an Idempotency-Key (config.idempotency, src/api/route.ts).
 */
export function routeFactory(defaults: RouteDefaults) {
  function idempotent<P = undefined, Q = undefined, B = undefined, R = unknown>(endpoint: Endpoint, operationId: string, parts: RouteParts<P, Q, B, R>): RoutePlugin {
    return route(endpoint, operationId, { ...parts, config: { idempotency: true, ...parts.config } });
  }
  return Object.assign(route, { idempotent });

  function route<P = undefined, Q = undefined, B = undefined, R = unknown>(endpoint: Endpoint, operationId: string, parts: RouteParts<P, Q, B, R>): RoutePlugin {
    const [method, url] = endpoint.split(' ') as [HTTPMethods, string];
    const { summary, description, params, querystring, body, response, bodyLimit, handler } = parts;
    const config = defaults.config || parts.config ? { ...defaults.config, ...parts.config } : undefined;
    const schema = Object.fromEntries(
      Object.entries({ operationId, tags: defaults.tags, summary, description, params, querystring, body, response }).filter(([, v]) => v !== undefined),
    );
    return async (app, { services }) => {
      app.route({
        method,
        url,
        ...(bodyLimit === undefined ? {} : { bodyLimit }),
        ...(config ? { config } : {}),
        schema,
        handler: (request, reply) => (handler as (s: Services, ...args: unknown[]) => unknown)(services, request, reply),
      });
    };
  }
}

/** A response by a registered schema (its $id, or the schema itself: then the handler's return is typed by it). */
function answer<S extends number>(status: S) {
  function at(ref: string, description?: string): Record<S, TRef>;
  function at<T extends TSchema>(ref: T, description?: string): Record<S, TRefUnsafe<T>>;
  function at(ref: string | TSchema, description?: string) {
    return { [status]: Type.Ref(typeof ref === 'string' ? ref : ref.$id!, description === undefined ? undefined : { description }) };
  }
  return at;
}

/** 200 with a registered schema. */
export const ok = answer(200);
/** 201 with a registered schema. */
export const created = answer(201);
/** 202 with a registered schema. */
export const accepted = answer(202);

/** A problem response the route documents beside the shared ones (src/http/openapi-document.ts). */
export const problem = (description: string) => ({ description, $ref: 'Problem#' });
