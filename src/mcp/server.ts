// One MCP server per caller (docs/mcp.md): its tools are those the caller's scopes allow, every
// call runs as the caller through the API (api.ts), an API problem is a tool error the model
// can act on, and a tool the caller may not use is an MCP error, as an unknown one is.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { safeParse, type AnyObjectSchema, type SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Principal, Scope } from '../api/route.js';
import { API_PREFIX, ApiProblem, CallerApi, type Credentials } from './api.js';
import { listResources, readResource, RESOURCE_TEMPLATES } from './artifacts.js';
import type { PngRenderer } from './png.js';
import { getPrompt, PROMPTS } from './prompts.js';
import { toolInputSchema, type RouteIndex, type RouteInfo } from './schemas.js';
import { callRoute, jsonResult, problemResult, RpcError, type ToolContext, type ToolDef } from './tool-kit.js';
import { TOOLS } from './tools.js';

const INSTRUCTIONS = `Crucible is a chemistry compute platform. Free to use: describe_molecules, depict_molecules, the lookup_* tools, list_* tools and the estimates.
Counted against the user's monthly allowance (never charged): predict, run_utility.
CHARGED to the user's wallet: submit_job and start_workflow_run. Before either, call estimate_job or estimate_workflow_run, show the user the cost in USD and wait for their consent.
Jobs and runs take time: follow them with wait_for_job or wait_for_workflow_run, then read results with get_job_result or read_artifact, and cite what cite_papers lists.`;

interface Entry {
  def: ToolDef;
  route: RouteInfo | null;
  scope: Scope;
  tool: Tool;
}

export interface McpDeps {
  app: FastifyInstance;
  routes: RouteIndex;
  png: PngRenderer;
  /** Aborted when the server closes: waits end with the status they have. */
  closing: AbortSignal;
  version: string;
  log: Logger;
}

/** The tools of the catalogue (src/catalogue/tools.ts, through TOOLS) with their input schemas, built once from the registered routes and schemas. */
export class ToolList {
  private entries: Entry[] | null = null;

  constructor(private readonly deps: Pick<McpDeps, 'app' | 'routes'>) {}

  lookup = (id: string): unknown => (this.deps.app.getSchemas() as Record<string, unknown>)[id];

  all(): Entry[] {
    this.entries ??= TOOLS.map((def) => {
      const route = def.route ? this.deps.routes.get(def.route.method, API_PREFIX + def.route.url) : null;
      const inputSchema = def.input ?? toolInputSchema(route, this.lookup, def.extra);
      const tool: Tool = {
        name: def.name,
        title: def.title,
        description: def.description,
        inputSchema: inputSchema as Tool['inputSchema'],
        annotations: { title: def.title, ...def.annotations },
        ...(def.charges ? { _meta: { 'crucible/charges_wallet': true } } : {}),
      };
      return { def, route, scope: route?.scope ?? def.scope ?? 'read', tool };
    });
    return this.entries;
  }
}

export interface Caller {
  principal: Principal;
  credentials: Credentials;
  ip?: string;
}

export function createMcpServer(deps: McpDeps, catalog: ToolList, caller: Caller): Server {
  const server = new Server(
    { name: 'crucible', title: 'Crucible', version: deps.version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const on = paramsChecked(server);
  const api = new CallerApi(deps.app, caller.credentials, caller.ip);
  const entries = catalog.all();
  const allowed = new Map(entries.filter((e) => caller.principal.scopes.has(e.scope)).map((e) => [e.def.name, e]));

  on(ListToolsRequestSchema, async () => ({ tools: [...allowed.values()].map((e) => e.tool) }));

  on(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const entry = allowed.get(name);
    if (!entry) {
      const known = entries.find((e) => e.def.name === name);
      throw new RpcError(
        ErrorCode.InvalidParams,
        known ? `tool ${name} needs the "${known.scope}" scope, which this API key does not have (it is not in this key's tool list)` : `unknown tool: ${name}`,
      );
    }
    const progressToken = request.params._meta?.progressToken;
    const ctx: ToolContext = {
      api,
      png: deps.png,
      route: entry.route,
      signal: AbortSignal.any([extra.signal, deps.closing]),
      lookup: catalog.lookup,
      async progress(progress, total, message) {
        if (progressToken === undefined) return;
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, ...(total !== undefined ? { total } : {}), message } });
      },
    };
    const args = request.params.arguments ?? {};
    try {
      return entry.def.run ? await entry.def.run(ctx, entry.def, args) : jsonResult(await callRoute(ctx, entry.def, args));
    } catch (err) {
      if (err instanceof ApiProblem) return problemResult(err);
      // The client cancelled the call or went away (its answer goes nowhere), or the server is closing.
      if (ctx.signal.aborted) throw new RpcError(ErrorCode.InternalError, `${name} was cancelled`);
      deps.log.error({ err, tool: name }, 'MCP tool failed');
      throw new RpcError(ErrorCode.InternalError, `${name} failed unexpectedly; the server logged it`);
    }
  });

  on(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  on(ListResourcesRequestSchema, async () => ({ resources: await asMcp(() => listResources(api)) }));
  on(ReadResourceRequestSchema, async (request) => readResource(api, request.params.uri));

  on(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  on(GetPromptRequestSchema, async (request) => getPrompt(api, request.params.name, request.params.arguments ?? {}));
  return server;
}

/**
 * server.setRequestHandler, but a request whose params do not match the method's schema is
 * answered -32602 (Invalid params) naming the field, as JSON-RPC says: the SDK parses them before
 * the handler and answers its parse error as -32603 (Internal error). The SDK gets a schema that
 * checks only the method; the handler's wrapper checks the whole request (docs/mcp.md, "Errors").
 */
function paramsChecked(server: Server): Server['setRequestHandler'] {
  return <T extends AnyObjectSchema>(schema: T, handler: Parameters<Server['setRequestHandler']>[1]) => {
    const methodOnly = (schema as unknown as { pick(keys: { method: true }): { loose(): T } }).pick({ method: true }).loose();
    server.setRequestHandler(methodOnly, (request, extra) => {
      const parsed = safeParse(schema, request);
      if (!parsed.success) {
        const issues = (parsed.error as { issues?: { path: PropertyKey[]; message: string }[] }).issues ?? [];
        const what = issues.map((i) => `${i.path.map(String).join('.') || 'request'}: ${i.message}`).join('; ') || String(parsed.error);
        throw new RpcError(ErrorCode.InvalidParams, `invalid params for ${String((request as { method?: unknown }).method)}: ${what}`);
      }
      return handler(parsed.data as SchemaOutput<T>, extra);
    });
  };
}

/** An API problem outside a tool call (a list) as an MCP error. */
async function asMcp<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiProblem) throw new RpcError(ErrorCode.InvalidRequest, err.message, err.problem);
    throw err;
  }
}
