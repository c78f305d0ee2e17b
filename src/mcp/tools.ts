// The MCP tools (docs/mcp.md, "Tools"): the tool catalogue's (src/catalogue/tools.ts), each
// naming the API route it calls, whose schemas make its input and whose scope it needs (a
// read-only key sees only the tools its scope allows), and here how those that do more than call
// their route run.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { listJobTypes } from '../catalogue/job-types.js';
import { MCP_CATALOGUE } from '../catalogue/tools.js';
import { jobResult, readArtifact } from './artifacts.js';
import { startRun, submitJob, waitForJob, waitForRun } from './follow.js';
import { callRoute, ImageBudget, jsonResult, type Args, type ToolContext, type ToolDef } from './tool-kit.js';

/** depict_molecules and depict_reactions: each drawing as image content, each failure as text. */
async function depict(ctx: ToolContext, def: ToolDef, args: Args): Promise<CallToolResult> {
  const r = await callRoute<{ items: { svg: string | null; error: string | null; detail?: string | null }[] }>(ctx, def, args);
  const inputs = ((args.smiles ?? args.reactions) as string[] | undefined) ?? [];
  const content: ContentBlock[] = [];
  const budget = new ImageBudget();
  for (const [i, item] of r.items.entries()) {
    const label = `${i}: ${inputs[i] ?? ''}`;
    if (!item.svg) {
      content.push({ type: 'text', text: `${label} could not be drawn: ${item.error}${item.detail ? ` (${item.detail})` : ''}` });
      continue;
    }
    // Once the answer's images are at their limit, the rest are not even rasterised.
    const svg = args.format === 'svg';
    const data = budget.full ? '' : svg ? Buffer.from(item.svg).toString('base64') : (await ctx.png.render(item.svg)).toString('base64');
    if (!budget.take(data)) {
      content.push({ type: 'text', text: `${label} (drawing left out: this answer's images are at their limit)` });
      continue;
    }
    content.push({ type: 'text', text: label }, { type: 'image', mimeType: svg ? 'image/svg+xml' : 'image/png', data });
  }
  const note = budget.note('drawing');
  if (note) content.push({ type: 'text', text: note });
  return { content };
}

/** list_job_types: the job types (the registry the job service checks payloads against; src/catalogue/job-types.ts). */
async function listJobTypesTool(ctx: ToolContext, _def: ToolDef, args: Args): Promise<CallToolResult> {
  const listing = listJobTypes(args.job_type, ctx.lookup);
  return listing.ok ? jsonResult(listing.value) : { isError: true, content: [{ type: 'text', text: listing.message }] };
}

/** How the tools that do more than call their route run. */
const RUNS: Record<string, ToolDef['run']> = {
  depict_molecules: depict,
  depict_reactions: depict,
  list_job_types: listJobTypesTool,
  submit_job: submitJob,
  wait_for_job: waitForJob,
  get_job_result: jobResult,
  start_workflow_run: startRun,
  wait_for_workflow_run: waitForRun,
  read_artifact: readArtifact,
};

/** MCP's tools: the catalogue's (src/catalogue/tools.ts), in its order, each with how it runs. */
export const TOOLS: ToolDef[] = MCP_CATALOGUE.map((t) => ({ ...t, ...(RUNS[t.name] ? { run: RUNS[t.name] } : {}) }));
for (const name of Object.keys(RUNS)) if (!TOOLS.some((t) => t.name === name)) throw new Error(`MCP: ${name} runs a tool the catalogue does not offer to MCP`);
