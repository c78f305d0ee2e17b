// One tool catalogue for the Assistant and MCP (docs/architecture.md, "The tool catalogue"): the
// Assistant's tool list and MCP's tools/list are built from src/catalogue/tools.ts, so every job
// type of the registry (src/compute/registry.ts) reaches both with its own payload schema, the
// one the job service validates with, and no list is written by hand beside the catalogue.
// Run: node --import tsx --test test/mcp/catalogue.test.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOL_SPECS } from '../../src/assistant/tool-specs.js';
import { CATALOGUE } from '../../src/catalogue/tools.js';
import { JOB_TYPE_NAMES, JOB_TYPES } from '../../src/compute/registry.js';
import { runTool, type ToolContext } from '../../src/modules/assistant/tools.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { httpClient, jsonOf } from './helpers.js';

/** A value as JSON carries it (TypeBox's symbol keys left out). */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
type Schema = { properties: Record<string, { enum?: string[]; description?: string }> };

for (const backend of BACKENDS) {
  describe(`the tool catalogue [${backend.name}]`, () => {
    let h: Harness;
    let mcp: Client;
    let mcpTools: Awaited<ReturnType<Client['listTools']>>['tools'];
    // list_job_types reads no caller's data: no principal is needed to run it.
    const ctx = { requestId: 'catalogue-test' } as unknown as ToolContext;
    const assistantCall = async (name: string, args: unknown) => {
      const r = await runTool(h.services, ctx, name, JSON.stringify(args));
      assert.ok(r.ok, `${name} succeeded: ${JSON.stringify(r.forModel)}`);
      return r.forModel as Record<string, any>;
    };
    before(async () => {
      h = await startHarness(backend, {}, { workers: 0 });
      const u = await h.user();
      mcp = await httpClient(h.base, (await h.key(u.token)).secret);
      mcpTools = (await mcp.listTools()).tools;
    });
    after(async () => {
      await mcp?.close();
      await h?.close();
    });

    it("the Assistant's tools are the catalogue's: names, descriptions and parameter schemas, in its order", () => {
      const expected = CATALOGUE.filter((t) => t.assistant).map((t) => ({ name: t.name, description: t.assistant!.description, parameters: t.assistant!.parameters }));
      assert.deepEqual(plain(TOOL_SPECS), plain(expected));
    });

    it("MCP's tools/list is the catalogue's: names, titles and descriptions in its order, and the catalogue's own input schemas", () => {
      const offered = CATALOGUE.filter((t) => t.mcp);
      assert.deepEqual(
        mcpTools.map((t) => [t.name, t.title, t.description]),
        offered.map((t) => [t.name, t.mcp!.title, t.mcp!.description]),
      );
      for (const t of offered.filter((x) => x.mcp!.input)) assert.deepEqual(mcpTools.find((x) => x.name === t.name)!.inputSchema, plain(t.mcp!.input), t.name);
    });

    it('every job type of the registry is a tool argument in both lists, and list_job_types in both answers its own payload schema', async () => {
      const assistantTool = (name: string) => TOOL_SPECS.find((t) => t.name === name)!.parameters as Schema;
      const mcpTool = (name: string) => mcpTools.find((t) => t.name === name)!.inputSchema as unknown as Schema;
      // The job_type arguments list exactly the registry's types.
      assert.deepEqual(assistantTool('estimate_job').properties.job_type!.enum, JOB_TYPE_NAMES);
      assert.deepEqual(assistantTool('list_job_types').properties.job_type!.enum, JOB_TYPE_NAMES);
      assert.deepEqual(mcpTool('list_job_types').properties.job_type!.enum, JOB_TYPE_NAMES);
      // MCP's estimate_job and submit_job take POST /jobs/estimate's and /jobs/submit's bodies, whose job_type names every type.
      for (const name of ['estimate_job', 'submit_job']) {
        const description = mcpTool(name).properties.job_type!.description ?? '';
        for (const type of JOB_TYPE_NAMES) assert.match(description, new RegExp(`\\b${type}\\b`), `${name} names ${type}`);
      }

      const everyType = await assistantCall('list_job_types', {});
      assert.deepEqual(
        everyType.job_types.map((t: { job_type: string }) => t.job_type),
        JOB_TYPE_NAMES,
      );
      assert.deepEqual(jsonOf(await mcp.callTool({ name: 'list_job_types', arguments: {} })), everyType);
      for (const [name, type] of JOB_TYPES) {
        const own = { job_type: name, summary: type.summary, payload_schema: plain(type.payload) };
        assert.deepEqual(await assistantCall('list_job_types', { job_type: name }), own, `the Assistant's list_job_types answers ${name}'s payload schema`);
        assert.deepEqual(jsonOf(await mcp.callTool({ name: 'list_job_types', arguments: { job_type: name } })), own, `MCP's list_job_types answers ${name}'s payload schema`);
      }
      const unknown = await runTool(h.services, ctx, 'list_job_types', JSON.stringify({ job_type: 'no_such_type' }));
      assert.deepEqual([unknown.ok, (unknown.forModel as { error: { code: string } }).error.code], [false, 'invalid-arguments']);
    });
    it('the chemistry questions (pka, tautomers, bde) are in /openapi.json, MCP and the Assistant’s engine job tools, with their own payloads', async () => {
      const doc = (await h.req('GET', '/openapi.json')).body;
      const ref = (x: any) => (x?.$ref ? doc.components.schemas[x.$ref.split('/').pop()] : x);
      const branches = doc.components.schemas.JobSubmitRequest.oneOf.map(ref);
      const payloadOf = (type: string) => ref(branches.find((b: any) => b.properties.job_type.enum[0] === type)?.properties.payload);
      assert.equal(payloadOf('pka')?.properties.ph.default, 7.4);
      assert.deepEqual([payloadOf('pka')?.properties.ph.minimum, payloadOf('pka')?.properties.ph.maximum], [0, 14]);
      assert.equal(payloadOf('tautomers')?.properties.solvent.default, 'water');
      assert.equal(payloadOf('tautomers')?.properties.max_tautomers.default, 50);
      assert.deepEqual(payloadOf('bde')?.properties.method.enum, ['gfn2']);
      assert.deepEqual(
        payloadOf('bde')?.properties.energies.anyOf.map((b: any) => b.const ?? b.enum?.[0]),
        ['b3lyp', 'gfn2'],
      );
      assert.ok(payloadOf('profile_table')?.properties.pka_artifact_id, 'the profile table step');
      for (const type of ['pka', 'tautomers', 'bde']) {
        assert.ok(doc.components.schemas[`${type[0]!.toUpperCase()}${type.slice(1)}Result`], `${type}'s result schema`);
        const submit = mcpTools.find((t) => t.name === 'submit_job')!.inputSchema as unknown as Schema;
        assert.match(submit.properties.job_type!.description ?? '', new RegExp(`\\b${type}\\b`), `MCP's submit_job takes ${type}`);
        const listed = jsonOf(await mcp.callTool({ name: 'list_job_types', arguments: { job_type: type } })) as { payload_schema: { properties: Record<string, unknown> } };
        assert.ok(listed.payload_schema.properties.molecules, `${type} takes molecules`);
      }
      // Structure-based design (docs/structure.md): MCP submits them with their own payloads.
      assert.equal(payloadOf('receptor_prepare')?.properties.ph.default, 7.4);
      assert.equal(payloadOf('pockets')?.properties.max_pockets.default, 5);
      assert.ok(payloadOf('pose_check')?.properties.reference_smiles, "pose_check's reference SMILES");
      assert.deepEqual(
        payloadOf('docking')?.properties.pose_order.anyOf.map((b: any) => b.const ?? b.enum?.[0]),
        ['score', 'checks', 'strain'],
      );
      for (const type of ['receptor_prepare', 'pockets', 'pose_check']) {
        const submit = mcpTools.find((t) => t.name === 'submit_job')!.inputSchema as unknown as Schema;
        assert.match(submit.properties.job_type!.description ?? '', new RegExp(`\\b${type}\\b`), `MCP's submit_job takes ${type}`);
        const listed = jsonOf(await mcp.callTool({ name: 'list_job_types', arguments: { job_type: type } })) as { payload_schema: { properties: Record<string, unknown> } };
        assert.ok(listed.payload_schema.properties.receptor_artifact_id && listed.payload_schema.properties.pdb_id, `${type} takes the receptor as docking does`);
      }
      // The Assistant proposes them as engine jobs (reactivity joins once registered).
      const engine = (TOOL_SPECS.find((t) => t.name === 'propose_engine_job')!.parameters as Schema).properties.job_type!;
      assert.deepEqual(engine.enum, [
        'optimize',
        'singlepoint',
        'frequencies',
        'conformers',
        'docking',
        'pka',
        'tautomers',
        'bde',
        ...(JOB_TYPES.has('reactivity') ? ['reactivity'] : []),
      ]);
      assert.match(engine.description ?? '', /pka \(pKa and charge state at ph, water\), tautomers \(ranked tautomers\), bde \(X-H bond energies\)/);
    });
  });
}
