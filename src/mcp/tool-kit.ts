// What a tool is (docs/mcp.md, "Tools"): an entry of the tool catalogue (src/catalogue/tools.ts)
// with how it runs; and how a tool's arguments become its route's request and the API's answer
// becomes the tool's result.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { API_PREFIX, ApiProblem, fillPath, text, type CallerApi } from './api.js';
import type { PngRenderer } from './png.js';
import type { JsonSchema } from '../catalogue/schemas.js';
import type { McpTool, Method } from '../catalogue/tools.js';
import type { RouteInfo } from './schemas.js';

export type { Method };
export type Args = Record<string, unknown>;

export interface ToolContext {
  api: CallerApi;
  png: PngRenderer;
  /** The route the tool's input schema was taken from. */
  route: RouteInfo | null;
  /** Aborted when the client cancels the call or the server shuts down. */
  signal: AbortSignal;
  /** A progress notification, when the client asked for them (a progressToken). */
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
  /** A registered schema by its $id (for the schemas a tool hands out, e.g. a job type's payload). */
  lookup: (id: string) => unknown;
}

/** A tool of the catalogue as MCP offers it (src/catalogue/tools.ts), with how it runs (default: call its route). */
export interface ToolDef extends McpTool {
  name: string;
  run?(ctx: ToolContext, def: ToolDef, args: Args): Promise<CallToolResult>;
}

/**
 * A JSON-RPC error answer. The SDK sends a thrown error's `code`, `message` and `data`; its own
 * McpError writes "MCP error <code>: " into the message, which the client's McpError repeats.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * Image data one tool answer carries at most (base64 characters, about 576 KB of PNG): twenty
 * large drawings would otherwise make an answer of megabytes, more than assistants pass on to
 * their model. docs/mcp.md, "Drawings as PNG".
 */
export const MAX_IMAGE_DATA = 768 * 1024;

/** What is left of an answer's MAX_IMAGE_DATA: images are taken in order until one does not fit. */
export class ImageBudget {
  private left = MAX_IMAGE_DATA;
  /** Images left out (the first that did not fit and every one after it). */
  omitted = 0;

  get full(): boolean {
    return this.omitted > 0;
  }

  /** Whether the image (its base64 data) goes into the answer. */
  take(data: string): boolean {
    if (this.full || data.length > this.left) {
      this.omitted++;
      return false;
    }
    this.left -= data.length;
    return true;
  }

  /** The line that says what was left out, or null. */
  note(what: string): string | null {
    return this.full
      ? `${this.omitted} ${what}${this.omitted === 1 ? ' is' : 's are'} left out: one answer carries at most ${MAX_IMAGE_DATA / 1024} KiB of images. Ask for them in another call, or smaller (width, height).`
      : null;
  }
}

/** Compact JSON as the tool's text result (models read it as well as indented, for fewer tokens). */
export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** An API problem as a tool error (isError): the model sees the status, the title and what to fix. */
export function problemResult(err: ApiProblem): CallToolResult {
  const p = err.problem;
  const head = `${text(p.title ?? 'Error')} (HTTP ${err.status}${typeof p.type === 'string' ? `, ${p.type.replace(/^\/api\/v1\/problems\//, '')}` : ''})`;
  const fields: Record<string, unknown> = {};
  for (const k of ['detail', 'errors', 'retry', 'request_id']) if (p[k] !== undefined) fields[k] = p[k];
  return { isError: true, content: [{ type: 'text', text: `${head}: ${JSON.stringify(fields)}` }] };
}

/** The tool's arguments split into the route's path parameters, query string and body. */
export function requestParts(route: RouteInfo, args: Args, extra: Record<string, unknown> = {}) {
  const keysOf = (s: unknown) => Object.keys(((s as JsonSchema | undefined)?.properties as JsonSchema | undefined) ?? {});
  const paramKeys = new Set(keysOf(route.params));
  const queryKeys = new Set(keysOf(route.querystring));
  const query: Args = {};
  const body: Args = {};
  for (const [k, v] of Object.entries(args)) {
    if (paramKeys.has(k) || k in extra) continue;
    if (queryKeys.has(k) || route.body === undefined) query[k] = v;
    else body[k] = v;
  }
  const url = route.url.startsWith(API_PREFIX) ? route.url.slice(API_PREFIX.length) : route.url;
  return { path: fillPath(url, args), query, body: route.body === undefined ? undefined : body };
}

/** The route's JSON answer for the tool's arguments (a problem throws ApiProblem). */
export async function callRoute<T = unknown>(ctx: ToolContext, def: ToolDef, args: Args): Promise<T> {
  const route = ctx.route!;
  const { path, query, body } = requestParts(route, args, def.extra);
  return ctx.api.json<T>(route.method as Method, { path, query, body, idempotent: def.idempotent, signal: ctx.signal });
}
