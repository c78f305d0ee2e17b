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
 * The examples as one ES module in a directory of their own that installs the SDK as a reader
 * would have it (node_modules/crucible-client, the built package), compiled with tsc --strict.
 * Answers the directory and the compiled program, or throws tsc's report.
 */
export function compileExamples(blocks: string[]): { dir: string; program: string; compileMs: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-sdk-examples-'));
  fs.mkdirSync(path.join(dir, 'node_modules', '@types'), { recursive: true });
  fs.symlinkSync(SDK_ROOT, path.join(dir, 'node_modules', 'crucible-client'), 'dir');
  fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', '@types', 'node'), path.join(dir, 'node_modules', '@types', 'node'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  fs.writeFileSync(path.join(dir, 'examples.ts'), blocks.join('\n'));
  const tsconfig = {
    compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], outDir: 'out', skipLibCheck: true },
    files: ['examples.ts'],
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  const compileMs = Math.round(performance.now() - t0);
  if (r.status !== 0) throw new Error(`the README's examples do not compile under tsc --strict:\n${r.stdout}${r.stderr}`);
  return { dir, program: path.join(dir, 'out', 'examples.js'), compileMs };
}
