// The OpenAPI document as generated clients read it (docs/api-decisions.md, "The OpenAPI
// document"): operation ids, described success responses, tags, the licence, requests and
// answers typed per job type and per utility tool (discriminators with their mapping, every
// registered type and tool present), WorkflowSpec wherever a spec goes, the run-start forms,
// required fields, enums and the problem responses shared once per status.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { JOB_TYPE_NAMES } from '../../src/compute/registry.js';
import { RESOURCE_NAMES } from '../../src/compute/resources.js';
import { JOB_STATUSES } from '../../src/compute/store.js';
import { TOOL_NAMES } from '../../src/chem/utilities/schemas.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('the OpenAPI document for generated clients', () => {
  let h: Harness;
  let doc: any;
  let schemas: Record<string, any>;
  const operations = (): [string, any][] =>
    Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
      Object.entries<any>(ops)
        .filter(([m]) => METHODS.includes(m))
        .map(([m, op]): [string, any] => [`${m.toUpperCase()} ${path}`, op]),
    );
  const ref = (name: string) => `#/components/schemas/${name}`;
  before(async () => {
    h = await startHarness(BACKENDS[0]);
    doc = (await h.req('GET', '/openapi.json')).body;
    schemas = doc.components.schemas;
  });
  after(() => h?.close());

  it('gives every operation a unique lowerCamelCase operationId, a described success response and a declared tag', () => {
    const ids = new Map<string, string>();
    const tags = new Map<string, string>(doc.tags.map((t: { name: string; description: string }) => [t.name, t.description]));
    for (const [id, op] of operations()) {
      assert.match(op.operationId ?? '', /^[a-z][a-zA-Z0-9]+$/, `${id} has a lowerCamelCase operationId`);
      assert.ok(!ids.has(op.operationId), `${op.operationId} of ${id} is also ${ids.get(op.operationId)}`);
      ids.set(op.operationId, id);
      const ok = Object.entries<any>(op.responses).filter(([s]) => s.startsWith('2'));
      assert.ok(ok.length > 0, `${id} has a success response`);
      for (const [status, r] of ok) assert.ok(r.description && r.description !== 'Default Response', `${id} ${status} is described`);
      for (const t of op.tags ?? []) assert.ok(tags.get(t), `${id}: tag "${t}" is declared with a description`);
    }
    assert.ok(ids.size >= 100, `${ids.size} operations`);
    for (const [opId, route] of [
      ['submitJob', 'POST /api/v1/jobs/submit'],
      ['estimateJob', 'POST /api/v1/jobs/estimate'],
      ['getJobResult', 'GET /api/v1/jobs/result'],
      ['startWorkflowRun', 'POST /api/v1/workflows/runs'],
      ['runUtility', 'POST /api/v1/utilities/run'],
      ['loginWithEmail', 'POST /api/v1/auth/login-email'],
    ] as const)
      assert.equal(ids.get(opId), route);
    // Apache-2.0 (LICENSE, NOTICE): the SPDX identifier, as package.json says (issue 32 point 6).
    assert.deepEqual(doc.info.license, { name: 'Apache-2.0', identifier: 'Apache-2.0' }, 'info.license');
    const pkg = (file: string) => (JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as { license?: string }).license;
    for (const file of ['package.json', 'web/package.json', 'clients/typescript/package.json']) assert.equal(pkg(file), 'Apache-2.0', `${file} license`);
    const text = fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
    assert.equal(
      crypto.createHash('sha256').update(text).digest('hex'),
      'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30',
      'LICENSE is the unmodified Apache License 2.0 text',
    );
    const notice = fs.readFileSync(path.join(ROOT, 'NOTICE'), 'utf8');
    for (const [engine, licence] of [
      ['xtb', 'LGPL-3.0'],
      ['MOPAC', 'Apache-2.0'],
      ['Open Babel', 'GPL-2.0'],
      ['AutoDock Vina', 'Apache-2.0'],
      ['RDKit', 'BSD-3-Clause'],
    ])
      assert.match(notice, new RegExp(`^\\s*${engine}\\s+.*${licence}`, 'm'), `NOTICE: ${engine} ${licence}`);
    assert.match(fs.readFileSync(path.join(ROOT, 'clients/python/pyproject.toml'), 'utf8'), /^license = \{ text = "Apache-2\.0" \}$/m, 'the Python SDK');
  });

  it('types job submit and estimate bodies per job type: a oneOf discriminated by job_type over every registered type', () => {
    for (const [component, branch] of [
      ['JobSubmitRequest', (t: string) => `${pascal(t)}JobRequest`],
      ['JobEstimateRequest', (t: string) => `${pascal(t)}JobEstimateRequest`],
    ] as const) {
      const s = schemas[component];
      assert.equal(s.discriminator.propertyName, 'job_type', component);
      assert.deepEqual(Object.keys(s.discriminator.mapping).sort(), [...JOB_TYPE_NAMES].sort(), `${component} maps every job type`);
      assert.equal(s.oneOf.length, JOB_TYPE_NAMES.length);
      for (const type of JOB_TYPE_NAMES) {
        const name = branch(type);
        assert.equal(s.discriminator.mapping[type], ref(name));
        const b = schemas[name];
        assert.deepEqual(b.properties.job_type.enum ?? [b.properties.job_type.const], [type], name);
        assert.equal(b.properties.payload.$ref, ref(`${pascal(type)}Payload`), name);
        assert.deepEqual(b.properties.resource.enum, RESOURCE_NAMES);
        assert.ok(b.required.includes('payload') && b.required.includes('job_type'));
        assert.equal(b.required.includes('job_name'), component === 'JobSubmitRequest');
      }
    }
    const multi = schemas.JobSubmitMultipleRequest.properties.jobs.items;
    assert.equal(multi.$ref, ref('JobSubmitRequest'));
    const op = doc.paths['/api/v1/jobs/submit'].post;
    assert.equal(op.requestBody.content['application/json'].schema.$ref, ref('JobSubmitRequest'));
  });

  it('discriminates utility calls and answers by tool, with a mapping over every tool', () => {
    for (const [component, suffix, field] of [
      ['UtilityRunRequest', 'Call', 'input'],
      ['UtilitySubmitRequest', 'Call', 'input'],
      ['UtilityRunResponse', 'RunResponse', 'result'],
      ['UtilityRequest', 'Request', 'result'],
    ] as const) {
      const s = schemas[component];
      assert.equal(s.discriminator.propertyName, 'tool', component);
      assert.deepEqual(Object.keys(s.discriminator.mapping).sort(), [...TOOL_NAMES].sort(), `${component} maps every tool`);
      for (const tool of TOOL_NAMES) {
        const target = String(s.discriminator.mapping[tool]).split('/').pop() ?? '';
        assert.ok(target.endsWith(suffix) && schemas[target], `${component}: ${tool} -> ${target}`);
        const b = schemas[target];
        assert.deepEqual(b.properties.tool.enum ?? [b.properties.tool.const], [tool]);
        const typed = JSON.stringify(b.properties[field]);
        assert.match(typed, new RegExp(`"#/components/schemas/Utility[A-Za-z]+(Input|Result)"`), `${target}.${field} is typed`);
      }
    }
    // The list item carries the tool name as an enum.
    assert.deepEqual(schemas.UtilityRequestSummary.properties.tool.enum, TOOL_NAMES);
  });

  it('publishes every workflow spec as WorkflowSpec and the run-start body as a oneOf of its forms', () => {
    const specs: string[] = [];
    const walk = (node: any, path: string) => {
      if (!node || typeof node !== 'object') return;
      if (node.properties?.spec) specs.push(`${path}: ${node.properties.spec.$ref}`);
      for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`);
    };
    walk(schemas, '');
    assert.ok(specs.length >= 7, specs.join('\n'));
    for (const s of specs) assert.ok(s.endsWith(ref('WorkflowSpec')), s);
    const start = schemas.WorkflowRunStartRequest;
    const forms = start.oneOf.map((f: { $ref: string }) => f.$ref.split('/').pop());
    assert.deepEqual(forms, ['WorkflowRunFromDefinition', 'WorkflowRunFromShareLink', 'WorkflowRunFromTemplate', 'WorkflowRunFromSpec']);
    const ajv = new Ajv({ strict: false });
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const validStart = ajv.getSchema('openapi#/components/schemas/WorkflowRunStartRequest')!;
    assert.equal(validStart({}), false, '{} is not a run start');
    assert.equal(validStart({ template_id: 'library-triage', spec: { name: 'x', steps: [] } }), false, 'two sources are not one');
    assert.equal(validStart({ template_id: 'library-triage', inputs: { library: ['CCO'] } }), true);
    assert.equal(validStart({ workflow_id: 'w', version: 2 }), true);
    assert.equal(validStart({ template_id: 't', version: 2 }), false, 'version goes with workflow_id');
  });

  it('marks what the server always sends as required, with separate list and detail schemas', () => {
    assert.ok(schemas.WorkflowRun.required.includes('steps') && schemas.WorkflowRun.required.includes('outputs'));
    assert.equal(schemas.WorkflowRunSummary.properties.steps, undefined);
    assert.equal(schemas.WorkflowRunList.properties.runs.items.$ref, ref('WorkflowRunSummary'));
    assert.equal(schemas.WorkflowList.properties.workflows.items.$ref, ref('WorkflowSummary'));
    assert.ok(schemas.MolecularProperties.required.includes('qed') && schemas.MolecularProperties.required.includes('ms'));
    const login = doc.paths['/api/v1/auth/login-email'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    for (const [name, field] of Object.entries<any>(login.properties)) {
      assert.equal(JSON.stringify(field).includes('"null"'), false, `login form field ${name} is never null`);
    }
  });

  it('gives the enums the server enforces as enums: job status with dispatched, job types, resources, sort fields', () => {
    assert.deepEqual(schemas.JobListItem.properties.status.enum, [...JOB_STATUSES]);
    assert.ok(schemas.JobStatusResponse.properties.status.enum.includes('dispatched'));
    assert.deepEqual(schemas.JobListItem.properties.job_type.enum, JOB_TYPE_NAMES);
    assert.deepEqual(schemas.JobEstimateResponse.properties.job_type.enum, JOB_TYPE_NAMES);
    assert.deepEqual(schemas.JobListItem.properties.resource.enum, RESOURCE_NAMES);
    const list = Object.fromEntries(doc.paths['/api/v1/jobs/list'].get.parameters.map((p: { name: string }) => [p.name, p]));
    assert.deepEqual(list.status.schema.items.enum, [...JOB_STATUSES]);
    assert.deepEqual([list.status.style, list.status.explode], ['form', false], 'status=queued,running');
    assert.ok(list.sort.schema.enum.includes('-created_at'));
    const runs = Object.fromEntries(doc.paths['/api/v1/workflows/runs'].get.parameters.map((p: { name: string }) => [p.name, p]));
    assert.deepEqual(runs.status.schema.items.enum, ['queued', 'running', 'completed', 'failed', 'cancelled']);
    assert.deepEqual(schemas.RunEvent.properties.status.enum.sort(), ['cancelled', 'completed', 'error', 'failed']);
  });

  it('declares each shared problem once per status in components.responses, with one example, and operations refer to them', () => {
    const shared = doc.components.responses;
    const statuses = new Map<string, string>();
    for (const [name, r] of Object.entries<any>(shared)) {
      const content = r.content['application/problem+json'];
      assert.equal(content.schema.$ref, ref('Problem'), name);
      assert.equal(content.example.status >= 400, true, name);
      statuses.set(String(content.example.status), name);
    }
    assert.equal(statuses.size, Object.keys(shared).length, 'one shared response per status');
    let refs = 0;
    for (const [id, op] of operations()) {
      for (const [status, r] of Object.entries<any>(op.responses)) {
        if (Number(status) < 400) continue;
        if (r.$ref) {
          assert.equal(r.$ref, `#/components/responses/${statuses.get(status)}`, `${id} ${status}`);
          refs++;
        } else {
          // A problem the operation declares itself (job-not-finished, cursor-expired, ...): described, no generated example.
          assert.notEqual(r.description, shared[statuses.get(status) ?? '']?.description, `${id} ${status}`);
          assert.equal(r.content['application/problem+json'].example, undefined);
        }
      }
      const params = op.parameters ?? [];
      if (!op.requestBody) for (const s of ['413', '415']) assert.equal(op.responses[s], undefined, `${id} takes no body: no ${s}`);
      assert.equal(op.responses['405'], undefined, `${id}: 405 is not an answer of a documented operation`);
      if (op.security?.length) assert.ok(op.responses['401'] && op.responses['429'], `${id} documents 401 and 429`);
      if (params.length || op.requestBody) assert.ok(op.responses['422'], `${id} documents 422`);
    }
    assert.ok(refs > 400, `${refs} references to shared problem responses`);
  });
});
