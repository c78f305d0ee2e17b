// The fuzz test's operations, read from the OpenAPI document, and the valid requests drawn for
// them (docs/reliability.md, "Fuzzing").
import fc from 'fast-check';
import { JOB_TYPES } from '../../src/compute/registry.js';
import { JOB_SORT_FIELDS } from '../../src/compute/service.js';
import { encodeLoose, type Auth, type Credentials, type Draft, type Part } from './mutations.js';
import { arbitraryFor, type JsonSchema, type SchemaContext } from './schema-arbitrary.js';

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Param {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  params: Param[];
  body?: { kind: 'json' | 'form' | 'multipart'; schema: JsonSchema };
  auth: 'none' | 'any' | 'token';
  idempotent: boolean;
}

export function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const m of METHODS) {
      const o = item[m];
      if (!o) continue;
      const params: Param[] = (o.parameters ?? []).map((p: any) => ({ name: p.name, in: p.in, required: !!p.required, schema: p.schema ?? {} }));
      const content = o.requestBody?.content ?? {};
      let body: Operation['body'];
      if (content['application/json']) body = { kind: 'json', schema: content['application/json'].schema };
      else if (content['application/x-www-form-urlencoded']) body = { kind: 'form', schema: content['application/x-www-form-urlencoded'].schema };
      else if (content['multipart/form-data']) body = { kind: 'multipart', schema: content['multipart/form-data'].schema };
      const schemes = new Set((o.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)));
      const auth = schemes.size === 0 ? 'none' : schemes.has('ApiKeyAuth') ? 'any' : 'token';
      ops.push({
        method: m.toUpperCase(),
        path,
        params,
        ...(body ? { body } : {}),
        auth,
        idempotent: params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
      });
    }
  }
  return ops;
}

// ---------------------------------------------------------------------------------------------
// What the account owns when fuzzing starts: ids the generators use, so that valid requests
// reach real rows, not only 404s. Each kind comes twice: one for the operations that read or
// change it, one for DELETE (so a deletion early in the run does not turn the rest into 404s).

export interface Fixtures {
  creds: Credentials;
  /** A second session of the account: GET /auth/logout uses it, so the main token survives. */
  spareToken: string;
  spareRefresh: string;
  email: string;
  password: string;
  /** A molecule set (also the input_artifact_id of job payloads). */
  artifact: Pair;
  /** Keys nobody authenticates with: rotate, rename and delete hit them. */
  key: Pair;
  /** Queued jobs (no runtime: they stay queued). */
  job: Pair;
}

export interface Pair {
  keep: string;
  doomed: string;
}

export const SMILES = ['CCO', 'c1ccccc1', 'CC(=O)Oc1ccccc1C(=O)O', 'C1CC1N', 'O=C(O)c1ccccc1', 'C[C@H](N)C(=O)O', '[Na+].[Cl-]', 'c1ccc2ccccc2c1', 'C1=CC=CC=C1', 'CCN(CC)CC'];
export const REACTIONS = ['CCO>>CC=O', 'C=C.O>>CCO', 'CC(=O)O.OCC>[H+]>CC(=O)OCC', '>>', 'c1ccccc1>>c1ccccc1Br'];
export const QUERIES = ['aspirin', 'CHEMBL25', 'CHEMBL203', 'EGFR', 'ENSG00000146648', 'EFO_0000305', 'P00533', '1M17', '2244', 'glucose', 'CCO'];
export const STATUSES = ['queued', 'dispatched', 'running', 'completed', 'error', 'cancelled'];

export const smi = fc.constantFrom(...SMILES);
export const fileArb = fc.oneof(
  fc.array(smi, { minLength: 1, maxLength: 5 }).map((l) => ({ filename: 'mols.smi', content: Buffer.from(l.map((s, i) => `${s} m${i}`).join('\n') + '\n') })),
  fc.array(smi, { minLength: 1, maxLength: 5 }).map((l) => ({ filename: 'mols.csv', content: Buffer.from(`smiles,name\n${l.map((s, i) => `${s},m${i}`).join('\n')}\n`) })),
  fc.constant({ filename: 'one.sdf', content: Buffer.from('\n  fuzz\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n$$$$\n') }),
  fc.record({
    filename: fc.constantFrom('data.bin', 'a.zip', 'notes.txt', 'noext', 'x.smi', 'weird name ü.csv'),
    content: fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
  }),
);

export function schemaContext(doc: any, fx: Fixtures, method: string): SchemaContext {
  const id = (p: Pair) => (method === 'DELETE' ? p.doomed : p.keep);
  const resolve = (ref: string): JsonSchema => {
    const name = ref.replace(/^#\/components\/schemas\//, '').replace(/#$/, '');
    const s = doc.components.schemas[name];
    if (!s) throw new Error(`unresolved $ref ${ref}`);
    return s;
  };
  const ctx: SchemaContext = {
    resolve,
    hints: {
      property(name, schema) {
        switch (name) {
          case 'smiles[]':
            return { arb: smi };
          case 'reactions[]':
            return { arb: fc.constantFrom(...REACTIONS) };
          // One query per lookup: each goes to the closed port up to four times (retries), through
          // the host's rate limit (5/s for PubChem), so more would only add waiting.
          case 'queries':
          case 'names':
            return { arb: fc.constantFrom(...QUERIES).map((q) => [q]), only: true };
          case 'query':
            return schema.type === 'string' ? { arb: smi } : undefined;
          case 'input_artifact_id':
          case 'artifact_id':
            return { arb: fc.constant(id(fx.artifact)) };
          case 'key_id':
            return { arb: fc.constant(id(fx.key)) };
          case 'process_id':
          case 'subject_id':
            return { arb: fc.constant(id(fx.job)) };
          case 'process_ids':
            return { arb: fc.array(fc.oneof(fc.constant(fx.job.keep), fc.uuid()), { minLength: 1, maxLength: 4 }).map((l) => l.join(',')), only: true };
          case 'resource':
            return { arb: fc.constantFrom('default', 'cpu-4') };
          case 'sort':
            return { arb: fc.tuple(fc.constantFrom('', '-'), fc.constantFrom(...JOB_SORT_FIELDS)).map(([a, b]) => a + b) };
          case 'status':
            // A query list is written comma-separated (published as an array with explode false).
            return schema.type === 'string' || schema.type === 'array' ? { arb: fc.subarray(STATUSES, { minLength: 1 }).map((l) => l.join(',')) } : undefined;
          case 'job_type':
            return { arb: fc.constantFrom(...JOB_TYPES.keys()) };
          case 'refresh_token':
            return { arb: fc.constant(fx.spareRefresh) };
          case 'username':
            return { arb: fc.constantFrom(fx.email, 'nobody@example.com') };
          case 'password':
            return { arb: fc.constant(fx.password) };
          // Long polls: keep them short, or a few draws would hold the run for minutes.
          case 'wait':
            return { arb: fc.constantFrom(0, 0, 0.05, 0.2), only: true };
          case 'range':
            return {
              arb: fc.constantFrom('bytes=0-9', 'bytes=-5', 'bytes=5-', 'bytes=0-0', 'bytes=999999-', 'bytes=5-1', 'items=0-1', 'bytes=0-1,3-4', 'bytes=a-b', ''),
              only: true,
            };
          case 'idempotency-key':
            return { arb: fc.uuid(), only: true };
          case 'file':
            return { arb: fileArb };
          case 'data_format':
            return { arb: fc.constantFrom('smi', 'csv', 'sdf', 'tsv', 'txt') };
          case 'mode':
            return { arb: fc.constantFrom('file', 'molecules', 'molecules') };
        }
        return undefined;
      },
      object(schema, build) {
        const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
        if (!(props.job_type && props.payload)) return undefined;
        // A job request: the payload's schema is the job type's (not in the document: `payload` is open there).
        const required = new Set<string>(schema.required ?? []);
        const others: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(
          Object.entries(props)
            .filter(([k]) => k !== 'job_type' && k !== 'payload')
            .map(([k, s]) => [k, build(s, k)]),
        );
        const requiredKeys = [...required].filter((k) => k in props);
        return fc.constantFrom(...JOB_TYPES.keys()).chain((type) => {
          const model: Record<string, fc.Arbitrary<unknown>> = { ...others, job_type: fc.constant(type), payload: payloadArb(type, build) };
          return fc.record(model, { requiredKeys });
        });
      },
    },
  };
  return ctx;
}

/** A job type's payload: its schema, with exactly one of `smiles` and `input_artifact_id` (a rule the schema cannot say). */
export function payloadArb(type: string, build: (s: JsonSchema, n?: string) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const s = JOB_TYPES.get(type)!.payload as JsonSchema;
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  if (!(props.smiles && props.input_artifact_id)) return build(s);
  const { smiles, input_artifact_id, port: _port, ...rest } = props;
  const req = (s.required ?? []) as string[];
  return fc.oneof(
    build({ ...s, properties: { ...rest, smiles }, required: [...req, 'smiles'] }),
    build({ ...s, properties: { ...rest, input_artifact_id }, required: [...req, 'input_artifact_id'] }),
  );
}

// ---------------------------------------------------------------------------------------------
// Valid drafts

export const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

export function draftArb(op: Operation, ctx: SchemaContext): fc.Arbitrary<Draft> {
  const of = (p: Param) => arbitraryFor(p.schema, ctx, p.name);
  const path = fc.record(Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, of(p).map((v) => encodeLoose(text(v)))])));
  const queryParams = op.params.filter((p) => p.in === 'query');
  const query = fc
    .record(Object.fromEntries(queryParams.map((p) => [p.name, of(p).map((v) => encodeLoose(text(v)))])), {
      requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
    })
    .map((r) => Object.entries(r) as [string, string][]);
  const headerParams = op.params.filter((p) => p.in === 'header');
  const headers = fc
    .record(Object.fromEntries(headerParams.map((p) => [p.name, of(p).map(text)])), {
      requiredKeys: headerParams.filter((p) => p.required || p.name === 'idempotency-key').map((p) => p.name),
    })
    .map((r) => r as Record<string, string>);
  const auth: fc.Arbitrary<Auth> =
    op.auth === 'none'
      ? fc.constantFrom<Auth>({ kind: 'none' }, { kind: 'none' }, { kind: 'token' })
      : op.auth === 'token'
        ? fc.constantFrom<Auth>({ kind: 'token' }, { kind: 'token' }, { kind: 'token' }, { kind: 'key' })
        : fc.constantFrom<Auth>({ kind: 'token' }, { kind: 'key' });
  let body: fc.Arbitrary<Draft['body']> = fc.constant({ kind: 'none' });
  if (op.body?.kind === 'json') body = arbitraryFor(op.body.schema, ctx).map((value) => ({ kind: 'json', value }));
  if (op.body?.kind === 'form')
    body = arbitraryFor(op.body.schema, ctx).map((v) => ({
      kind: 'form',
      value: Object.fromEntries(Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => (x === null || x === undefined ? [] : [[k, text(x)]]))),
    }));
  if (op.body?.kind === 'multipart')
    body = arbitraryFor(op.body.schema, ctx).map((v) => ({
      kind: 'multipart',
      parts: Object.entries(v as Record<string, unknown>).flatMap(([name, x]): Part[] => {
        if (x === null || x === undefined) return [];
        if (Buffer.isBuffer(x)) return [{ name, value: x, filename: 'upload.bin' }];
        if (typeof x === 'object' && 'filename' in x && 'content' in x) return [{ name, value: x.content as Buffer, filename: String(x.filename) }];
        return [{ name, value: text(x) }];
      }),
    }));
  return fc.record({ path, query, headers, auth, body });
}
