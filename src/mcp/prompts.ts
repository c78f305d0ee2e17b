// The two prompts (docs/mcp.md, "Prompts"): "Triage my library" walks the model through the
// library-triage template with the estimate shown before anything is charged; "Explain this
// result" puts a job's or run's result in front of the model, read as the caller.
import { ErrorCode, type GetPromptResult, type Prompt, type PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import { ApiProblem, text, type CallerApi } from './api.js';
import { INLINE_TEXT_BYTES, jobResultUri } from './artifacts.js';
import { RpcError } from './tool-kit.js';

export const PROMPTS: Prompt[] = [
  {
    name: 'triage_my_library',
    title: 'Triage my library',
    description: 'Filter, describe, cluster and draw a molecule library with the library-triage workflow, showing the cost before it runs',
    arguments: [
      { name: 'library', description: 'An uploaded molecule set (its artifact id), or SMILES separated by spaces, commas or new lines', required: true },
      { name: 'expression', description: 'Which molecules to keep, e.g. "mw <= 500 and clogp < 5 and not pains" (default: the template\'s)', required: false },
    ],
  },
  {
    name: 'explain_this_result',
    title: 'Explain this result',
    description: "Explain a job's or workflow run's result in plain words, with what to cite",
    arguments: [{ name: 'id', description: "A job's process_id or a workflow run's run_id", required: true }],
  },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function triage(args: Record<string, string>): GetPromptResult {
  const given = (args.library ?? '').trim();
  if (!given) throw new RpcError(ErrorCode.InvalidParams, 'library is required: an artifact id or SMILES');
  const library = UUID.test(given) ? JSON.stringify(given) : JSON.stringify(given.split(/[\s,]+/).filter(Boolean));
  const expression = args.expression?.trim() ? `, "expression": ${JSON.stringify(args.expression.trim())}` : '';
  const text = [
    'Triage my molecule library with Crucible.',
    `The library input: ${library}${UUID.test(given) ? ' (an uploaded molecule set)' : ''}.`,
    '',
    'Steps:',
    '1. list_workflow_templates, and take the "library-triage" template (properties, a filter, clustering, drawings).',
    `2. estimate_workflow_run with that template's spec and inputs {"library": ${library}${expression}}. Show me the cost in USD and the steps, and wait for my go-ahead: the run charges my wallet.`,
    '3. Once I agree, start_workflow_run with template_id "library-triage" and the same inputs, then wait_for_workflow_run until it ends.',
    '4. read_artifact on the outputs: tell me how many molecules passed the filter and why others failed, the clusters and their representatives, and the alerts (PAINS, Brenk) worth a look. Show a few drawings (depict_molecules).',
    '5. cite_papers with the run id, and list what to cite.',
  ].join('\n');
  return { description: 'Triage a library with the library-triage workflow', messages: [{ role: 'user', content: { type: 'text', text } }] };
}

async function explain(api: CallerApi, args: Record<string, string>): Promise<GetPromptResult> {
  const id = (args.id ?? '').trim();
  if (!id) throw new RpcError(ErrorCode.InvalidParams, "id is required: a job's process_id or a workflow run's run_id");
  const messages: PromptMessage[] = [];
  const ask = (what: string, cite: string) =>
    `Explain ${what} to me in plain words: what was computed and with which method, what each value means and whether it is good or bad for a drug-like molecule, and any warning (errors, molecules outside a model's applicability domain, unconverged structures). Then ${cite} and list what I should cite.`;
  try {
    const job = await api.get<{ info: Record<string, unknown> }>('/jobs/info', { process_id: id });
    const i = job.info;
    messages.push({
      role: 'user',
      content: {
        type: 'text',
        text: `${ask(`the result of my Crucible job ${id} (${String(i.job_type)}, "${String(i.job_name)}", ${String(i.status)})`, `call cite_papers with process_id ${id}`)}`,
      },
    });
    if (i.status === 'completed') {
      const r = await api.raw('GET', { path: '/jobs/result', query: { process_id: id } });
      const text = r.body.toString('utf8');
      messages.push({
        role: 'user',
        content:
          r.status === 200 && r.body.length <= INLINE_TEXT_BYTES
            ? { type: 'resource', resource: { uri: jobResultUri(id), mimeType: 'application/json', text } }
            : { type: 'resource_link', uri: jobResultUri(id), name: `result of job ${id}`, mimeType: 'application/json' },
      });
    } else {
      messages.push({
        role: 'user',
        content: { type: 'text', text: `The job has not completed (status ${String(i.status)}: ${text(i.message)}); say so, and what to do.` },
      });
    }
    return { description: `Explain job ${id}`, messages };
  } catch (err) {
    if (!(err instanceof ApiProblem) || err.status !== 404) throw toMcp(err);
  }
  try {
    const run = await api.get<Record<string, unknown>>(`/workflows/runs/${encodeURIComponent(id)}`);
    messages.push({
      role: 'user',
      content: {
        type: 'text',
        text: ask(`the result of my Crucible workflow run ${id} ("${String(run.name)}", ${String(run.status)})`, `call cite_papers with workflow_run_id ${id}`),
      },
    });
    messages.push({
      role: 'user',
      content: { type: 'text', text: `The run, as Crucible reports it (its outputs are artifacts: read them with read_artifact):\n${JSON.stringify(run)}` },
    });
    return { description: `Explain workflow run ${id}`, messages };
  } catch (err) {
    throw toMcp(err);
  }
}

function toMcp(err: unknown): unknown {
  if (err instanceof ApiProblem) return new RpcError(ErrorCode.InvalidParams, `${err.status === 404 ? 'no job or workflow run of yours has this id' : err.message}`, err.problem);
  return err;
}

export async function getPrompt(api: CallerApi, name: string, args: Record<string, string>): Promise<GetPromptResult> {
  if (name === 'triage_my_library') return triage(args);
  if (name === 'explain_this_result') return explain(api, args);
  throw new RpcError(ErrorCode.InvalidParams, `unknown prompt: ${name} (triage_my_library, explain_this_result)`);
}
