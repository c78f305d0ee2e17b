// Artifacts and job results for a model (docs/mcp.md, "Artifacts and resources"): small ones
// inline, large ones as resource links the client reads when it wants them, and the two
// resource templates, crucible://jobs/{id}/result and crucible://artifacts/{id}, read through
// the same API routes (GET /jobs/result, GET /artifacts/{id}/download) as the caller.
import { ErrorCode, type CallToolResult, type ContentBlock, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ApiProblem, problemOf, text, type CallerApi } from './api.js';
import { ImageBudget, jsonResult, RpcError, type Args, type ToolContext, type ToolDef } from './tool-kit.js';

/** Up to this many bytes of text go into a tool result; larger ones are resource links (about 16k tokens). */
export const INLINE_TEXT_BYTES = 64 * 1024;
/** An image record up to this size is image content. */
const INLINE_IMAGE_BYTES = 1024 * 1024;
/** A resource read holds the object in memory (base64 for binaries): larger ones are downloaded over HTTP. */
export const RESOURCE_MAX_BYTES = 32 * 1024 * 1024;
/** Record ids listed per port in read_artifact's overview. */
const RECORDS_SHOWN = 20;
/** Records of a port read one by one for read_artifact (their text when small, drawings as images). */
const RECORDS_READ = 50;
const RECORD_TEXT_BYTES = 4096;
const IMAGES_SHOWN = 8;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'crucible://jobs/{process_id}/result',
    name: 'job-result',
    title: 'Job result',
    description: 'The result document of a completed job (JSON), as GET /jobs/result answers it',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'crucible://artifacts/{artifact_id}{?port,record}',
    name: 'artifact',
    title: 'Artifact',
    description: 'An artifact: the whole zip archive, or with port and/or record that part (its own media type), as GET /artifacts/{id}/download answers it',
  },
];

const isText = (type: string) => /^(text\/|chemical\/|application\/(json|[\w.+-]*\+json|[\w.+-]*\+xml|xml)|image\/svg\+xml)/.test(type);

export const artifactUri = (id: string, part: { port?: unknown; record?: unknown } = {}) => {
  const q = new URLSearchParams();
  if (part.port !== undefined) q.set('port', text(part.port));
  if (part.record !== undefined) q.set('record', text(part.record));
  const s = q.toString();
  return `crucible://artifacts/${encodeURIComponent(id)}${s ? `?${s}` : ''}`;
};
export const jobResultUri = (id: string) => `crucible://jobs/${encodeURIComponent(id)}/result`;

/** The first `bytes` of a download and its whole size (a Range request: nothing larger is read into memory). */
async function downloadHead(api: CallerApi, id: string, query: Args, bytes: number, signal?: AbortSignal) {
  const r = await api.raw('GET', { path: `/artifacts/${encodeURIComponent(id)}/download`, query, headers: { range: `bytes=0-${bytes - 1}` }, signal });
  if (r.status === 416) return { body: Buffer.alloc(0), size: 0, type: 'application/octet-stream' };
  if (r.status !== 200 && r.status !== 206) throw problemOf(r.status, r.body.toString('utf8'));
  const total = /\/(\d+)$/.exec(text(r.headers['content-range']))?.[1];
  return { body: r.body, size: total ? Number(total) : r.body.length, type: r.contentType.split(';')[0]!.trim() || 'application/octet-stream' };
}

/** read_artifact: without port or record, what the artifact holds; with them, that part, inline when small. */
export async function readArtifact(ctx: ToolContext, _def: ToolDef, args: Args): Promise<CallToolResult> {
  const id = String(args.artifact_id);
  if (args.port === undefined && args.record === undefined) {
    const a = await ctx.api.get<{
      id: string;
      size_bytes: number;
      job_id: string | null;
      created_at: string | null;
      manifest: { job_type?: string; ports?: Record<string, Record<string, unknown>> };
    }>(`/artifacts/${encodeURIComponent(id)}`, undefined, ctx.signal);
    const ports = Object.fromEntries(
      Object.entries(a.manifest.ports ?? {}).map(([name, p]) => {
        const records = (p.records as { id: string }[] | undefined) ?? [];
        return [
          name,
          {
            kind: p.kind,
            format: p.format,
            record_count: p.record_count,
            records: records.slice(0, RECORDS_SHOWN).map((r) => r.id),
            more: Math.max(0, records.length - RECORDS_SHOWN),
          },
        ];
      }),
    );
    const overview = {
      artifact_id: a.id,
      job_id: a.job_id,
      job_type: a.manifest.job_type ?? null,
      size_bytes: a.size_bytes,
      created_at: a.created_at,
      ports,
      next: 'read_artifact with port (and record) for a part',
    };
    return {
      content: [
        { type: 'text', text: JSON.stringify(overview) },
        {
          type: 'resource_link',
          uri: artifactUri(id),
          name: `artifact ${id}`,
          mimeType: 'application/zip',
          description: 'The whole archive (zip)',
          annotations: { audience: ['user'] },
        },
      ],
    };
  }
  const part = { ...(args.port !== undefined ? { port: args.port } : {}), ...(args.record !== undefined ? { record: args.record } : {}) };
  const head = await downloadHead(ctx.api, id, part, Math.max(INLINE_TEXT_BYTES, INLINE_IMAGE_BYTES) + 1, ctx.signal);
  const label = `artifact ${id}${part.port !== undefined ? ` port ${text(part.port)}` : ''}${part.record !== undefined ? ` record ${text(part.record)}` : ''}`;
  if (head.type === 'application/zip' && part.port !== undefined && part.record === undefined) return readPort(ctx, id, text(part.port), head.size);
  if (head.type === 'image/svg+xml' && head.size <= INLINE_TEXT_BYTES) {
    return {
      content: [
        { type: 'text', text: `${label} (a drawing)` },
        { type: 'image', mimeType: 'image/png', data: (await ctx.png.render(head.body.toString('utf8'))).toString('base64') },
      ],
    };
  }
  if (isText(head.type) && head.size <= INLINE_TEXT_BYTES) {
    return { content: [{ type: 'text', text: `${label} (${head.type}, ${head.size} bytes):\n${head.body.toString('utf8')}` }] };
  }
  if (/^image\/(png|jpeg|gif|webp)$/.test(head.type) && head.size <= INLINE_IMAGE_BYTES) {
    return { content: [{ type: 'image', data: head.body.toString('base64'), mimeType: head.type }] };
  }
  return {
    content: [
      {
        type: 'text',
        text: `${label} is ${head.size} bytes of ${head.type}${isText(head.type) ? ', too large to show here' : ''}: the link below reads it (or GET /api/v1/artifacts/${id}/download over HTTP).`,
      },
      { type: 'resource_link', uri: artifactUri(id, part), name: label, mimeType: head.type, size: head.size },
    ],
  };
}

interface ManifestRecord {
  id: string;
  metrics?: Record<string, number>;
  content_types?: { primary?: string };
}

/**
 * A port of several records (its download is a zip): each record's id and metrics from the
 * manifest, the content of small text records (a molecule's SMILES, a cluster's JSON), the
 * first drawings as images, and a link to the whole port.
 */
async function readPort(ctx: ToolContext, id: string, port: string, size: number): Promise<CallToolResult> {
  const a = await ctx.api.get<{ manifest: { ports?: Record<string, { kind?: string; format?: string; record_count?: number; records?: ManifestRecord[] }> } }>(
    `/artifacts/${encodeURIComponent(id)}`,
    undefined,
    ctx.signal,
  );
  const p = a.manifest.ports?.[port] ?? {};
  const records = p.records ?? [];
  const images: ContentBlock[] = [];
  const shown: Record<string, unknown>[] = [];
  const budget = { text: INLINE_TEXT_BYTES, images: new ImageBudget() };
  for (const r of records.slice(0, RECORDS_READ)) {
    const item: Record<string, unknown> = { id: r.id, ...(r.metrics ? { metrics: r.metrics } : {}) };
    const type = r.content_types?.primary ?? '';
    if (type === 'image/svg+xml' && images.length < IMAGES_SHOWN && budget.images.full) budget.images.take('');
    else if (type === 'image/svg+xml' && images.length < IMAGES_SHOWN) {
      const svg = await downloadHead(ctx.api, id, { port, record: r.id }, INLINE_TEXT_BYTES + 1, ctx.signal);
      if (svg.size <= INLINE_TEXT_BYTES) {
        const data = (await ctx.png.render(svg.body.toString('utf8'))).toString('base64');
        if (budget.images.take(data)) images.push({ type: 'image', mimeType: 'image/png', data });
      }
    } else if (isText(type)) {
      const small = await downloadHead(ctx.api, id, { port, record: r.id }, RECORD_TEXT_BYTES + 1, ctx.signal);
      if (small.size <= RECORD_TEXT_BYTES) item.content = small.body.toString('utf8');
    }
    budget.text -= JSON.stringify(item).length;
    if (budget.text < 0) break;
    shown.push(item);
  }
  const overview = { artifact_id: id, port, kind: p.kind, format: p.format, record_count: p.record_count ?? records.length, records: shown, more: records.length - shown.length };
  return {
    content: [
      { type: 'text', text: JSON.stringify(overview) },
      ...images,
      ...(budget.images.full ? [{ type: 'text' as const, text: budget.images.note('drawing') ?? '' }] : []),
      {
        type: 'resource_link',
        uri: artifactUri(id, { port }),
        name: `artifact ${id} port ${port}`,
        mimeType: 'application/zip',
        size,
        description: `The port's ${records.length} records (zip)`,
      },
    ],
  };
}

/** get_job_result: the result document inline when small, else a resource link to it. */
export async function jobResult(ctx: ToolContext, _def: ToolDef, args: Args): Promise<CallToolResult> {
  const id = String(args.process_id);
  const r = await ctx.api.raw('GET', { path: '/jobs/result', query: { process_id: id }, signal: ctx.signal });
  if (r.status !== 200) throw problemOf(r.status, r.body.toString('utf8'));
  if (r.body.length <= INLINE_TEXT_BYTES) return jsonResult(JSON.parse(r.body.toString('utf8')));
  return {
    content: [
      {
        type: 'text',
        text: `The result of job ${id} is ${r.body.length} bytes of JSON, too large to show here: the link below reads it; the job's artifact (read_artifact) holds it as tables and files.`,
      },
      { type: 'resource_link', uri: jobResultUri(id), name: `result of job ${id}`, mimeType: 'application/json', size: r.body.length },
    ],
  };
}

/** resources/list: the caller's 20 newest completed jobs' results and 20 newest artifacts (the archive items of GET /artifacts). */
export async function listResources(api: CallerApi): Promise<Resource[]> {
  const jobs = await api.get<{ items: { process_id: string; job_name: string; job_type: string }[] }>('/jobs/list', { status: 'completed', limit: 20 });
  const artifacts = await api.get<{ items: { artifact_id: string; port: string; data_kind: string; data_format: string; job_name: string | null; size_bytes: number }[] }>(
    '/artifacts',
    { limit: 100, include_archive: true },
  );
  return [
    ...jobs.items.map((j) => ({
      uri: jobResultUri(j.process_id),
      name: `result of ${j.job_name}`,
      description: `${j.job_type} job ${j.process_id}`,
      mimeType: 'application/json',
    })),
    ...artifacts.items
      .filter((a) => a.port === '*')
      .slice(0, 20)
      .map((a) => ({ uri: artifactUri(a.artifact_id), name: `artifact ${a.job_name ?? a.artifact_id}`, mimeType: 'application/zip', size: a.size_bytes })),
  ];
}

/** resources/read of a crucible:// URI; an API problem (404 for another user's id) is an MCP error. */
export async function readResource(api: CallerApi, uri: string): Promise<ReadResourceResult> {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    throw new RpcError(ErrorCode.InvalidParams, `not a URI: ${uri}`);
  }
  const segments = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  try {
    if (u.protocol === 'crucible:' && u.host === 'jobs' && segments.length === 2 && segments[1] === 'result') {
      const r = await api.raw('GET', { path: '/jobs/result', query: { process_id: segments[0] } });
      if (r.status !== 200) throw problemOf(r.status, r.body.toString('utf8'));
      return { contents: [{ uri, mimeType: 'application/json', text: r.body.toString('utf8') }] };
    }
    if (u.protocol === 'crucible:' && u.host === 'artifacts' && segments.length === 1) {
      const query = Object.fromEntries([...u.searchParams].filter(([k]) => k === 'port' || k === 'record'));
      const head = await downloadHead(api, segments[0]!, query, RESOURCE_MAX_BYTES + 1);
      if (head.size > RESOURCE_MAX_BYTES) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `${uri} is ${head.size} bytes, more than the ${RESOURCE_MAX_BYTES} an MCP read carries: download it over HTTP (GET /api/v1/artifacts/${segments[0]}/download)`,
        );
      }
      const content = isText(head.type) ? { text: head.body.toString('utf8') } : { blob: head.body.toString('base64') };
      return { contents: [{ uri, mimeType: head.type, ...content }] };
    }
  } catch (err) {
    if (err instanceof ApiProblem) throw new RpcError(err.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, err.message, err.problem);
    throw err;
  }
  throw new RpcError(RESOURCE_NOT_FOUND, `no such resource: ${uri} (crucible://jobs/{process_id}/result or crucible://artifacts/{artifact_id})`);
}

/** The MCP specification's code for a resource that is not found. */
const RESOURCE_NOT_FOUND = -32002;
