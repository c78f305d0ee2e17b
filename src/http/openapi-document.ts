// The pass over the whole OpenAPI document that @fastify/swagger generated from the route
// schemas (docs/api-decisions.md, "The OpenAPI document"): the tags with their descriptions,
// the schemas published in place of loose ones (publishedAs), each discriminator's mapping, and
// the problem responses every operation shares, declared once per status in
// components.responses with one example each.
import { PARAMETER_STYLE, PUBLISHED_AS } from '../api/schemas.js';
import { httpProblem, problem, problemBody, type ApiError } from './problems.js';

/** The tags of the operations, in the order /docs shows them. */
export const TAGS: { name: string; description: string }[] = [
  { name: 'health', description: 'Liveness and readiness probes (no credential)' },
  { name: 'auth', description: 'Log in with email and password, refresh the token pair, log out' },
  { name: 'api keys', description: 'Create, list, rename, rotate and revoke API keys (access token only)' },
  { name: 'wallet', description: 'The balance, the active reservations and what is available' },
  { name: 'usage', description: 'Calls this month against the allowance, storage, keys, jobs and runs' },
  { name: 'events', description: 'The completion feed of jobs and workflow runs: cursors and long polls' },
  { name: 'artifacts', description: 'Upload, list, read and download artifacts (zip archives with a manifest); job results are artifacts' },
  { name: 'chemistry', description: 'Synchronous RDKit answers: structure drawings and molecular descriptions' },
  { name: 'jobs', description: 'Paid compute jobs: estimate, submit, follow, read the result, cancel, delete' },
  { name: 'engines', description: 'The compute engines (xtb, MOPAC, Open Babel, Vina) this server runs' },
  { name: 'utilities', description: 'RDKit utility tools, synchronous or as asynchronous requests; counted against the monthly allowance' },
  { name: 'models', description: 'Your trained MPNN models and the public models with their cards' },
  { name: 'inference', description: 'Predictions with public and your own models, synchronous or as asynchronous requests' },
  { name: 'science lookups', description: 'PubChem, ChEMBL, Open Targets, UniProt and RCSB PDB, with each source’s licence and attribution' },
  { name: 'papers', description: 'The references behind the methods and data, and what to cite for a result' },
  { name: 'workflows', description: 'Workflow definitions (DAGs of job steps): validate, estimate, save, version, share, fork; and their runs' },
  { name: 'assistant', description: 'The Assistant: sessions, streamed turns and plan cards to approve (access token only)' },
];

interface SharedProblem {
  name: string;
  description: string;
  example: ApiError;
}

/** The problem responses operations share, one per status, each with one example (rendered by problems.ts). */
export const SHARED_PROBLEMS: Record<string, SharedProblem> = {
  '400': {
    name: 'BadRequest',
    description: 'Problem: the body is not valid JSON, or a required Idempotency-Key header is missing (missing-idempotency-key)',
    example: httpProblem(400, "the body is not valid JSON: Expected property name or '}' in JSON at position 1"),
  },
  '401': {
    name: 'Unauthorized',
    description: 'Problem: no credential, or one that is invalid, expired (token-expired) or revoked (token-revoked)',
    example: problem('token-expired', 'the access token has expired; refresh it with POST /api/v1/auth/refresh'),
  },
  '403': {
    name: 'Forbidden',
    description: 'Problem: the credential lacks the scope (insufficient-scope), or a quota or spend ceiling is reached',
    example: problem('insufficient-scope', 'this API key lacks the "write" scope that POST /api/v1/jobs/submit needs'),
  },
  '404': { name: 'NotFound', description: 'Problem: no such resource among yours', example: httpProblem(404, 'job 6f1c2d1e-8b1a-4c55-9d8e-2a4f3b7c9d10 not found') },
  '409': {
    name: 'IdempotencyConflict',
    description: 'Problem: the Idempotency-Key was used for a different request (idempotency-key-reused), or its first request is still running (idempotency-key-in-progress)',
    example: problem(
      'idempotency-key-reused',
      'this Idempotency-Key was first used for a different request (POST /api/v1/jobs/submit with another body); use a new key for a new request',
    ),
  },
  '413': {
    name: 'PayloadTooLarge',
    description: 'Problem: the body is over its cap (payload-too-large; JSON bodies 1 MiB unless the operation says more)',
    example: problem('payload-too-large', 'the request body is larger than the limit of 1048576 bytes'),
  },
  '415': {
    name: 'UnsupportedMediaType',
    description: 'Problem: the body is not in a media type this operation takes',
    example: httpProblem(415, 'content type "text/plain" is not accepted here; send application/json'),
  },
  '422': {
    name: 'ValidationFailed',
    description: 'Problem: the input is invalid; `errors` locates every issue',
    example: httpProblem(422, 'body.smiles.0: String should have at most 2000 characters', {
      errors: [{ type: 'string_too_long', loc: ['body', 'smiles', 0], msg: 'String should have at most 2000 characters', input: 'CCCC...' }],
    }),
  },
  '429': {
    name: 'TooManyRequests',
    description: 'Problem: over the rate limit (rate-limited); Retry-After and RateLimit-* tell when to come back',
    example: problem('rate-limited', 'rate limit of 600 requests per minute reached for this credential; retry in 12 s'),
  },
  '500': { name: 'InternalError', description: 'Problem: an unexpected fault on the server (quote request_id)', example: httpProblem(500, 'internal error') },
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Replaces every schema that carries a published form (publishedAs) by that form, keeping its description. */
function replacePublished(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(replacePublished);
  if (!isObject(node)) return node;
  const published = node[PUBLISHED_AS];
  if (isObject(published)) {
    const description = published.description ?? node.description;
    return replacePublished({ ...published, ...(description !== undefined ? { description } : {}) });
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replacePublished(v)]));
}

/** The component a local reference names. */
const componentOf = (schemas: Json, ref: unknown): Json | undefined =>
  typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? (schemas[ref.slice('#/components/schemas/'.length)] as Json | undefined) : undefined;

/**
 * Gives every discriminator over referenced branches its mapping (the tag value of each
 * branch, read from the branch's `const`): generated clients and Redocly need it; Ajv, which
 * validates the same schemas, takes none (it reads the branches itself).
 */
function addMappings(node: unknown, schemas: Json): void {
  if (Array.isArray(node)) return node.forEach((n) => addMappings(n, schemas));
  if (!isObject(node)) return;
  const d = node.discriminator;
  if (isObject(d) && typeof d.propertyName === 'string' && !d.mapping && Array.isArray(node.oneOf)) {
    const mapping: Record<string, string> = {};
    for (const branch of node.oneOf as Json[]) {
      const tag = (componentOf(schemas, branch.$ref)?.properties as Record<string, Json> | undefined)?.[d.propertyName];
      const values = tag ? (tag.const !== undefined ? [tag.const] : ((tag.enum as unknown[] | undefined) ?? [])) : [];
      for (const v of values) if (typeof v === 'string') mapping[v] = String(branch.$ref);
    }
    if (Object.keys(mapping).length) node.discriminator = { ...d, mapping };
  }
  for (const v of Object.values(node)) addMappings(v, schemas);
}

/** The shared problem statuses an operation can answer, from what it takes. */
function sharedStatuses(op: Json): string[] {
  const params = (op.parameters as { in: string; name: string }[] | undefined) ?? [];
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  const hasBody = op.requestBody !== undefined;
  const idempotent = params.some((p) => p.in === 'header' && p.name === 'idempotency-key');
  const out: string[] = [];
  if (hasBody || idempotent) out.push('400');
  if (!isPublic) out.push('401', '403');
  if (params.some((p) => p.in === 'path' || p.in === 'query')) out.push('404');
  if (idempotent) out.push('409');
  if (hasBody) out.push('413', '415');
  if (hasBody || params.length) out.push('422');
  if (!isPublic) out.push('429');
  out.push('500');
  return out;
}

const problemContent = (example?: ApiError) => ({
  'application/problem+json': {
    schema: { $ref: '#/components/schemas/Problem' },
    ...(example ? { example: problemBody(example, '/api/v1/...', '01J9Z3K8Q4W5X6Y7Z8A9B0C1D2') } : {}),
  },
});

/** A problem response a route declares itself (an inline response of the Problem schema), as problem+json. */
export function problemResponse(description: string): Json {
  return { description, content: problemContent() };
}

/** The whole-document pass; `doc` is the object @fastify/swagger built. */
export function finishDocument(generated: Json): Json {
  const doc = replacePublished(generated) as Json;
  const components = (doc.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  addMappings(schemas, schemas);
  addMappings(doc.paths, schemas);
  components.responses = Object.fromEntries(Object.values(SHARED_PROBLEMS).map((p) => [p.name, { description: p.description, content: problemContent(p.example) }]));
  for (const ops of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.includes(method) || !isObject(op)) continue;
      // A parameter published as an array says how it is written (commaListParam).
      for (const p of (op.parameters as Json[] | undefined) ?? []) {
        const schema = p.schema as Json | undefined;
        if (schema && isObject(schema[PARAMETER_STYLE])) {
          Object.assign(p, schema[PARAMETER_STYLE]);
          delete schema[PARAMETER_STYLE];
        }
      }
      const responses = (op.responses ?? {}) as Json;
      for (const status of sharedStatuses(op)) {
        const shared = SHARED_PROBLEMS[status];
        if (shared && !responses[status]) responses[status] = { $ref: `#/components/responses/${shared.name}` };
      }
      op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  doc.components = components;
  return doc;
}
