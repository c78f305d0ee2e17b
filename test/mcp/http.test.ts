// The MCP server over Streamable HTTP (issue 27; docs/mcp.md), with the MCP SDK's own client, on
// both databases: the tool list and its schemas (the routes' own), a describe, an image, a job
// estimated, submitted (its reservation answered) and awaited, its result as a tool and as a
// resource, a workflow run followed, predictions and utilities, what a read-only key may do,
// other users' ids, and the API's checks (validation, spend ceiling, structure egress) answered
// as tool errors without a crash.
// Run: node --import tsx --test test/mcp/http.test.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { httpClient, jsonOf, pngSize, textOf, toolErrorOf, WRITE_TOOLS } from './helpers.js';

const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
const CONTRACT_TOOLS = [
  'describe_molecules',
  'depict_molecules',
  'estimate_job',
  'submit_job',
  'wait_for_job',
  'get_job_result',
  'list_workflow_templates',
  'start_workflow_run',
  'predict',
  'run_utility',
  'cite_papers',
  'lookup_compounds',
];

/** Every `$ref` and every combinator at the root of a schema: MCP clients take one self-contained object. */
function refsIn(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === '$ref' ? [String(v)] : refsIn(v)));
}

for (const backend of BACKENDS) {
  describe(`MCP over Streamable HTTP [${backend.name}]`, () => {
    let h: Harness;
    let full: Client;
    let readOnly: Client;
    let other: Client;
    let owner: Awaited<ReturnType<Harness['user']>>;
    let pid = '';
    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
      owner = await h.user();
      await h.credit(owner.userId, 20);
      full = await httpClient(h.base, (await h.key(owner.token)).secret);
      readOnly = await httpClient(h.base, (await h.key(owner.token, { scopes: ['read'] })).secret);
      const stranger = await h.user();
      other = await httpClient(h.base, (await h.key(stranger.token)).secret);
    });
    after(async () => {
      for (const c of [full, readOnly, other]) await c?.close();
      await h?.close();
    });

    it('lists the tools with the input schemas the routes validate with', async () => {
      const { tools } = await full.listTools();
      const names = tools.map((t) => t.name);
      for (const n of [
        ...CONTRACT_TOOLS,
        'lookup_bioactivity',
        'lookup_targets',
        'lookup_proteins',
        'lookup_structures',
        'lookup_properties',
        'wait_for_workflow_run',
        'read_artifact',
      ])
        assert.ok(names.includes(n), `${n} is listed`);
      for (const t of tools) {
        assert.equal(t.inputSchema.type, 'object', `${t.name} takes an object`);
        for (const k of ['oneOf', 'anyOf', 'allOf']) assert.equal((t.inputSchema as Record<string, unknown>)[k], undefined, `${t.name}: no ${k} at the root`);
        assert.deepEqual(refsIn(t.inputSchema), [], `${t.name}: no $ref left`);
        assert.ok((t.description ?? '').length > 20 && (t.description ?? '').length < 600, `${t.name} has a short description`);
      }
      // describe_molecules takes exactly the body of POST /describe.
      const describeTool = tools.find((t) => t.name === 'describe_molecules')!;
      const DescribeRequest = (h.app.getSchemas() as Record<string, { properties: { smiles: object } }>).DescribeRequest!;
      assert.deepEqual(describeTool.inputSchema, {
        type: 'object',
        properties: { smiles: JSON.parse(JSON.stringify(DescribeRequest.properties.smiles)) },
        required: ['smiles'],
        additionalProperties: false,
      });
      // run_utility: the oneOf of {tool, input} hoisted into one object, each input schema a titled branch.
      const utility = tools.find((t) => t.name === 'run_utility')!.inputSchema as any;
      assert.deepEqual(utility.properties.tool.enum, ['convert', 'fingerprints', 'similarity', 'substructure', 'mcs', 'rgroups']);
      assert.deepEqual(
        utility.properties.input.oneOf.map((b: { title: string }) => b.title),
        ['UtilityConvertInput', 'UtilityFingerprintsInput', 'UtilitySimilarityInput', 'UtilitySubstructureInput', 'UtilityMcsInput', 'UtilityRGroupsInput'],
      );
      // The tools that spend money say so.
      for (const name of ['submit_job', 'start_workflow_run']) {
        const t = tools.find((x) => x.name === name)!;
        assert.deepEqual(
          { readOnly: t.annotations?.readOnlyHint, destructive: t.annotations?.destructiveHint, charges: t._meta?.['crucible/charges_wallet'] },
          { readOnly: false, destructive: true, charges: true },
        );
        assert.match(t.description!, /CHARGES THE USER'S WALLET[\s\S]*estimate/);
      }
      assert.equal(tools.find((t) => t.name === 'describe_molecules')!.annotations?.readOnlyHint, true);
      assert.equal(tools.find((t) => t.name === 'lookup_compounds')!.annotations?.openWorldHint, true);
    });

    it('describes molecules and draws them as PNG (or SVG) images', async () => {
      const d = jsonOf(await full.callTool({ name: 'describe_molecules', arguments: { smiles: ['CCO', 'not a molecule'] } }));
      assert.equal(d.items[0].properties.formula, 'C2H6O');
      assert.equal(d.items[0].properties.mw, 46.069);
      assert.equal(d.items[1].error, 'unparseable');

      const r = (await full.callTool({ name: 'depict_molecules', arguments: { smiles: ['c1ccccc1O', 'C1CC'], width: 320, height: 200 } })) as CallToolResult;
      const images = r.content.filter((c) => c.type === 'image');
      assert.equal(images.length, 1, 'one drawing, one failure');
      assert.equal(images[0]!.mimeType, 'image/png');
      assert.deepEqual(pngSize(Buffer.from(images[0]!.data, 'base64')), { width: 320, height: 200 });
      assert.match(JSON.stringify(r.content), /1: C1CC could not be drawn: unparseable/);

      const svg = (await full.callTool({ name: 'depict_molecules', arguments: { smiles: ['CCO'], format: 'svg' } })) as CallToolResult;
      const img = svg.content.find((c) => c.type === 'image');
      assert.ok(img && img.type === 'image' && img.mimeType === 'image/svg+xml');
      assert.match(Buffer.from(img.data, 'base64').toString('utf8'), /<svg[\s\S]*<\/svg>/);
    });

    it('estimates, submits (answering the reservation) and waits for a job, and reads its result as a tool and a resource', async () => {
      const job = { job_type: 'properties', payload: { smiles: ['CCO', ASPIRIN] } };
      const estimate = jsonOf(await full.callTool({ name: 'estimate_job', arguments: job }));
      assert.ok(estimate.cost > 0);
      const submitted = jsonOf(await full.callTool({ name: 'submit_job', arguments: { job_name: 'mcp', ...job } }));
      pid = submitted.process_id;
      assert.equal(submitted.reserved_usd, estimate.cost, 'the reservation is the estimate');
      const info = await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token: owner.token });
      assert.equal(info.body.info.reserved_usd, submitted.reserved_usd);

      const progress: number[] = [];
      const waited = jsonOf(
        await full.callTool({ name: 'wait_for_job', arguments: { process_id: pid, timeout_seconds: 60 } }, undefined, { onprogress: (p) => progress.push(p.progress) }),
      );
      assert.equal(waited.status, 'completed');
      assert.equal(waited.ended, true);
      assert.ok(progress.length >= 1 && progress.every((p, i) => i === 0 || p > progress[i - 1]!), `progress grows: ${progress.join(', ')}`);

      const result = jsonOf(await full.callTool({ name: 'get_job_result', arguments: { process_id: pid } }));
      assert.equal(result.items[1].properties.formula, 'C9H8O4');
      const api = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: owner.token });
      assert.deepEqual(result, api.body, 'the same document as GET /jobs/result');

      const resource = await full.readResource({ uri: `crucible://jobs/${pid}/result` });
      assert.equal(resource.contents[0]!.mimeType, 'application/json');
      const content = resource.contents[0]!;
      assert.ok('text' in content);
      assert.deepEqual(JSON.parse(content.text), api.body);
      const { resources } = await full.listResources();
      assert.ok(
        resources.some((x) => x.uri === `crucible://jobs/${pid}/result`),
        'the result is listed',
      );

      const cite = jsonOf(await full.callTool({ name: 'cite_papers', arguments: { process_id: pid } }));
      assert.match(cite.bibtex, /@article/);

      // The artifact: an overview, then the table inline.
      const overview = (await full.callTool({ name: 'read_artifact', arguments: { artifact_id: waited.result_artifact_id } })) as CallToolResult;
      const o = JSON.parse(textOf(overview));
      assert.ok(Object.keys(o.ports).length >= 1);
      assert.ok(overview.content.some((c) => c.type === 'resource_link' && c.uri === `crucible://artifacts/${waited.result_artifact_id}`));
      const zip = await full.readResource({ uri: `crucible://artifacts/${waited.result_artifact_id}` });
      const blob = zip.contents[0]!;
      assert.ok('blob' in blob);
      assert.equal(Buffer.from(blob.blob, 'base64').subarray(0, 2).toString('latin1'), 'PK', 'the archive as a blob');

      const explain = await full.getPrompt({ name: 'explain_this_result', arguments: { id: pid } });
      assert.match(JSON.stringify(explain.messages[0]), /properties/);
      const embedded = explain.messages[1]!.content;
      assert.ok(embedded.type === 'resource' && embedded.resource.uri === `crucible://jobs/${pid}/result`, 'the result is embedded');
    });

    it('follows a workflow run started from a template, its reservation answered', async () => {
      const { templates } = jsonOf(await full.callTool({ name: 'list_workflow_templates', arguments: {} }));
      const triage = templates.find((t: { template_id: string }) => t.template_id === 'library-triage');
      const inputs = { library: ['CCO', 'c1ccccc1O', ASPIRIN, 'CC(=O)Oc1ccccc1'] };
      const estimate = jsonOf(await full.callTool({ name: 'estimate_workflow_run', arguments: { spec: triage.spec, inputs } }));
      const started = jsonOf(await full.callTool({ name: 'start_workflow_run', arguments: { template_id: 'library-triage', inputs } }));
      assert.equal(started.reserved_usd, estimate.cost, 'the run reserves its estimate');
      const run = jsonOf(await full.callTool({ name: 'wait_for_workflow_run', arguments: { run_id: started.run_id, timeout_seconds: 120 } }));
      assert.equal(run.status, 'completed', JSON.stringify(run.steps));
      assert.deepEqual(
        run.steps.map((s: { state: string }) => s.state),
        ['completed', 'completed', 'completed', 'completed'],
      );
      // A port of several records: each with its metrics and (small) content; drawings as images.
      const kept = run.outputs.kept;
      const port = JSON.parse(textOf(await full.callTool({ name: 'read_artifact', arguments: { artifact_id: kept.artifact_id, port: kept.port } })));
      assert.equal(port.record_count, 4);
      assert.deepEqual(
        port.records.map((r: { metrics: { mw: number } }) => r.metrics.mw),
        [46.069, 94.113, 180.159, 136.15],
      );
      assert.match(port.records[1].content, /c1ccccc1O|Oc1ccccc1/);
      const drawings = run.outputs.drawings;
      const shown = (await full.callTool({ name: 'read_artifact', arguments: { artifact_id: drawings.artifact_id, port: drawings.port } })) as CallToolResult;
      const pngs = shown.content.filter((c) => c.type === 'image');
      assert.equal(pngs.length, 4, 'the four drawings');
      for (const img of pngs) assert.ok(img.type === 'image' && pngSize(Buffer.from(img.data, 'base64')).width > 0);
      const table = run.outputs.properties;
      assert.match(textOf(await full.callTool({ name: 'read_artifact', arguments: { artifact_id: table.artifact_id, port: table.port } })), /text\/csv[\s\S]*C9H8O4/);
    });

    it('predicts with a public model and runs utilities, as over HTTP', async () => {
      const { models } = jsonOf(await full.callTool({ name: 'list_models', arguments: {} }));
      assert.ok(
        models.some((m: { model: string }) => m.model === 'public/esol-logs'),
        JSON.stringify(models).slice(0, 300),
      );
      const p = jsonOf(await full.callTool({ name: 'predict', arguments: { model: 'public/esol-logs', smiles: ['CCO', 'c1ccc2ccccc2c1'] } }));
      const direct = await h.req('POST', '/api/v1/inference/predict', { token: owner.token, body: { model: 'public/esol-logs', smiles: ['CCO', 'c1ccc2ccccc2c1'] } });
      assert.deepEqual(
        p.predictions.map((x: { prediction: number }) => x.prediction),
        direct.body.predictions.map((x: { prediction: number }) => x.prediction),
      );
      assert.ok(p.predictions[0].prediction > p.predictions[1].prediction, 'ethanol is more soluble than naphthalene');
      const c = jsonOf(await full.callTool({ name: 'run_utility', arguments: { tool: 'convert', input: { molecules: [ASPIRIN], outputs: ['inchikey'] } } }));
      assert.equal(c.result.items[0].inchikey, 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
    });

    it('gives a read-only key no write tool, and refuses a submit with an MCP error', async () => {
      const names = (await readOnly.listTools()).tools.map((t) => t.name);
      const all = (await full.listTools()).tools.map((t) => t.name);
      assert.deepEqual(all.filter((n) => !names.includes(n)).sort(), WRITE_TOOLS);
      await assert.rejects(readOnly.callTool({ name: 'submit_job', arguments: { job_name: 'x', job_type: 'wait', payload: { seconds: 1 } } }), (err: Error & { code?: number }) => {
        assert.equal(err.code, -32602);
        assert.match(err.message, /submit_job needs the "write" scope/);
        return true;
      });
      const jobs = await h.req('GET', '/api/v1/jobs/list?job_type=wait', { token: owner.token });
      assert.equal(jobs.body.total, 0, 'nothing was submitted');
      // Reading is fine.
      assert.equal(jsonOf(await readOnly.callTool({ name: 'wait_for_job', arguments: { process_id: pid, timeout_seconds: 0 } })).status, 'completed');
    });

    it("answers another user's ids as not found", async () => {
      assert.match(toolErrorOf(await other.callTool({ name: 'get_job_result', arguments: { process_id: pid } })), /HTTP 404/);
      assert.match(toolErrorOf(await other.callTool({ name: 'wait_for_job', arguments: { process_id: pid, timeout_seconds: 0 } })), /HTTP 404/);
      const artifact = (await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: owner.token })).body.result_artifact_id;
      assert.match(toolErrorOf(await other.callTool({ name: 'read_artifact', arguments: { artifact_id: artifact } })), /HTTP 404/);
      await assert.rejects(other.readResource({ uri: `crucible://jobs/${pid}/result` }), (err: Error & { code?: number }) => err.code === -32002);
      await assert.rejects(other.readResource({ uri: `crucible://artifacts/${artifact}` }), (err: Error & { code?: number }) => err.code === -32002);
      await assert.rejects(other.getPrompt({ name: 'explain_this_result', arguments: { id: pid } }), /no job or workflow run of yours/);
    });

    it("answers the API's refusals as tool errors and goes on", async () => {
      const tooMany = toolErrorOf(await full.callTool({ name: 'describe_molecules', arguments: { smiles: Array(21).fill('C') } }));
      assert.match(tooMany, /HTTP 422/);
      assert.match(tooMany, /"loc":\["body","smiles"\]/);
      await assert.rejects(full.callTool({ name: 'no_such_tool', arguments: {} }), (err: Error & { code?: number }) => err.code === -32602 && /unknown tool/.test(err.message));
      const early = await full.callTool({ name: 'submit_job', arguments: { job_name: 'nap', job_type: 'wait', payload: { seconds: 30 } } });
      const nap = jsonOf(early).process_id;
      assert.match(toolErrorOf(await full.callTool({ name: 'get_job_result', arguments: { process_id: nap } })), /job-not-finished/);
      const t0 = Date.now();
      const still = jsonOf(await full.callTool({ name: 'wait_for_job', arguments: { process_id: nap, timeout_seconds: 2 } }));
      assert.deepEqual([still.ended, ['queued', 'dispatched', 'running'].includes(still.status)], [false, true], JSON.stringify(still));
      assert.ok(Date.now() - t0 < 8000, 'a wait ends at its timeout');
      assert.match(still.next, /call wait_for_job again/);
      assert.match(textOf(await full.callTool({ name: 'cancel_job', arguments: { process_id: nap } })), /cancelled; charged \$/);
      // The key's spend ceiling holds here as over HTTP.
      const capped = await httpClient(h.base, (await h.key(owner.token, { spend_ceiling_usd: 0.0001 })).secret);
      try {
        assert.match(
          toolErrorOf(await capped.callTool({ name: 'submit_job', arguments: { job_name: 'c', job_type: 'properties', payload: { smiles: ['CCO'] } } })),
          /spend-ceiling-exceeded/,
        );
        // Structures go to ChEMBL only for keys that allow it: this one does not (nothing is sent).
        const lookup = jsonOf(await capped.callTool({ name: 'lookup_bioactivity', arguments: { operation: 'similarity', queries: ['CCO'] } }));
        assert.equal(lookup.results[0].status, 'structure_egress_not_allowed');
      } finally {
        await capped.close();
      }
      assert.equal(jsonOf(await full.callTool({ name: 'describe_molecules', arguments: { smiles: ['C'] } })).items[0].properties.formula, 'CH4', 'still serving');
    });

    it('takes the API key as a bearer token too, for clients that send only Authorization', async () => {
      const secret = (await h.key(owner.token, { scopes: ['read'] })).secret;
      const client = new Client({ name: 'bearer', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes('describe_molecules') && !names.includes('submit_job'), "the read-only key's tools");
        assert.equal(jsonOf(await client.callTool({ name: 'describe_molecules', arguments: { smiles: ['N'] } })).items[0].properties.formula, 'H3N');
      } finally {
        await client.close();
      }
    });

    it('answers GET /mcp with 405 and a call without a key with 401', async () => {
      const get = await h.req('GET', '/mcp', { key: 'x' });
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      const anon = await h.req('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } });
      assert.equal(anon.status, 401);
      assert.equal(anon.body.type, '/api/v1/problems/http-401');
    });
  });
}
