// Shared by the TypeScript SDK's tests: building it with tsc, loading the build, fetches that
// record what the SDK sends or inject a network fault (a lost answer, a cut stream), and the
// README's examples as one program compiled with tsc --strict.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../../src/paths.js';

export const SDK_ROOT = path.join(PACKAGE_ROOT, 'clients', 'typescript');
const TSC = path.join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

export type Sdk = typeof import('../../clients/typescript/src/index.js');

/** Compiles the SDK into its dist/ (a fresh build) and loads it; answers it with the build's duration. */
export async function buildSdk(): Promise<{ sdk: Sdk; buildMs: number }> {
  fs.rmSync(path.join(SDK_ROOT, 'dist'), { recursive: true, force: true });
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [TSC, '-p', path.join(SDK_ROOT, 'tsconfig.json')], { encoding: 'utf8' });
  const buildMs = Math.round(performance.now() - t0);
  if (r.status !== 0) throw new Error(`tsc failed to build the SDK:\n${r.stdout}${r.stderr}`);
  const sdk = (await import(pathToFileURL(path.join(SDK_ROOT, 'dist', 'index.js')).href)) as Sdk;
  return { sdk, buildMs };
}

export interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  status: number | null;
  replayed: boolean;
  body: string | null;
}

/**
 * A fetch that records every request the SDK sends (method, URL, headers, the answer's status)
 * and, for each request `lose` picks, lets the server handle it but throws the way fetch does
 * when a connection drops: the answer never reaches the SDK.
 */
export function recordingFetch(o: { lose?: (r: Request, n: number) => boolean; cutStream?: (r: Request, n: number) => number | null } = {}) {
  const sent: Sent[] = [];
  let n = 0;
  const fetcher = async (request: Request): Promise<Response> => {
    const i = n++;
    const body = request.body ? await request.clone().text() : null;
    const entry: Sent = { method: request.method, url: new URL(request.url), headers: new Headers(request.headers), status: null, replayed: false, body };
    sent.push(entry);
    const response = await fetch(request);
    entry.status = response.status;
    entry.replayed = response.headers.get('idempotent-replayed') === 'true';
    if (o.lose?.(request, i)) {
      await response.arrayBuffer();
      throw new TypeError('fetch failed', { cause: new Error('socket hang up (injected by the test)') });
    }
    const cutAfter = o.cutStream?.(request, i);
    if (cutAfter != null && response.body) return new Response(cut(response.body, cutAfter), { status: response.status, headers: response.headers });
    return response;
  };
  return { fetch: fetcher, sent };
}

/** The stream's first `events` events (comments aside), then an error, as a dropped connection gives. */
function cut(body: ReadableStream<Uint8Array>, events: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  let passed = 0;
  let dropped = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Erroring discards what is queued: the last events go out first, the error at the next pull.
      if (dropped) return controller.error(new TypeError('terminated (injected by the test)'));
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        pending += decoder.decode(value, { stream: true });
        let out = '';
        for (let i = pending.indexOf('\n\n'); i >= 0 && !dropped; i = pending.indexOf('\n\n')) {
          const block = pending.slice(0, i + 2);
          pending = pending.slice(i + 2);
          out += block;
          if (!block.startsWith(':')) passed++;
          if (passed >= events) dropped = true;
        }
        if (dropped) await reader.cancel();
        if (out) return controller.enqueue(encoder.encode(out));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The ```ts blocks of the SDK's README, in order. */
export function readmeExamples(): string[] {
  const readme = fs.readFileSync(path.join(SDK_ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

/** Casts (`as`, `<T>x`) other than `as const`, and non-null assertions (`x!`), in a program. */
export function castsIn(source: string): string[] {
  const file = ts.createSourceFile('examples.ts', source, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const isConst = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.getText(file) === 'const';
    if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) {
      found.push(`line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.getText(file)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * Programs (file name -> source) in a directory of their own that installs the SDK as a reader
 * would have it (node_modules/crucible-client, the built package), compiled with tsc --strict.
 * Answers the directory and where the compiled programs are, or throws tsc's report.
 */
export function compileAsUser(files: Record<string, string>): { dir: string; out: string; compileMs: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-sdk-examples-'));
  fs.mkdirSync(path.join(dir, 'node_modules', '@types'), { recursive: true });
  fs.symlinkSync(SDK_ROOT, path.join(dir, 'node_modules', 'crucible-client'), 'dir');
  fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', '@types', 'node'), path.join(dir, 'node_modules', '@types', 'node'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  for (const [name, source] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), source);
  const tsconfig = {
    compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], outDir: 'out', skipLibCheck: true },
    files: Object.keys(files),
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  const compileMs = Math.round(performance.now() - t0);
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`tsc --strict refuses them:\n${r.stdout}${r.stderr}`);
  }
  return { dir, out: path.join(dir, 'out'), compileMs };
}

/**
 * What the generated types must refuse (each line under `@ts-expect-error`: tsc fails on one
 * that compiles) and narrow (a job result on job_type, a utility answer on tool), with no cast.
 */
export const TYPE_CHECKS = `import { Crucible } from 'crucible-client';
const client = new Crucible({ baseUrl: 'http://127.0.0.1:8000', apiKey: 'crk_x' });
export async function checks(): Promise<void> {
  // @ts-expect-error a run start names what to run: {} is none of its forms
  await client.post('/api/v1/workflows/runs', { body: {} });
  // @ts-expect-error a wait job's payload has no smiles
  await client.post('/api/v1/jobs/submit', { body: { job_name: 'n', job_type: 'wait', payload: { smiles: ['CCO'] } } });
  // @ts-expect-error an unknown job type
  await client.post('/api/v1/jobs/estimate', { body: { job_type: 'nap', payload: {} } });
  // @ts-expect-error process_id is required
  await client.get('/api/v1/jobs/status');
  // @ts-expect-error no such path
  await client.get('/api/v1/jobs/nowhere');
  const result = await client.get('/api/v1/jobs/result', { params: { query: { process_id: 'p' } } });
  if (result.job_type === 'wait') {
    const slept: number = result.slept_seconds;
    // @ts-expect-error a wait result has no items
    void result.items;
    void slept;
  }
  const run = await client.post('/api/v1/utilities/run', { body: { tool: 'convert', input: { molecules: ['CCO'], outputs: ['inchikey'] } } });
  if (run.tool === 'convert') void run.result;
  // Fields with a default are optional: a properties job without resource, a describe without more.
  await client.post('/api/v1/jobs/submit', { body: { job_name: 'n', job_type: 'properties', payload: { smiles: ['CCO'] } } });
  const status = await client.waitForJob('p');
  // @ts-expect-error a status is a string
  const n: number = status.status;
  void n;
}
`;
