// Engine discovery at start (docs/engines.md): each engine of the catalog is looked up on the
// PATH and asked its version. What a process finds decides which job types its workers claim
// (src/compute/queue.ts) and what GET /engines reports; a missing engine is a 503 engine-unavailable at
// estimate and submit naming its Debian package.
import fs from 'node:fs';
import path from 'node:path';
import { ENGINE_NAMES, ENGINES, type EngineName } from './catalog.js';
import { engineEnv, runEngine } from './process.js';
import { makeScratch, removeScratch } from './scratch.js';

export interface FoundEngine {
  name: EngineName;
  available: boolean;
  path: string | null;
  version: string | null;
}

export type Engines = Readonly<Record<EngineName, FoundEngine>>;

/** The first executable `binary` on `PATH`, or null. */
export function which(binary: string, pathVar = process.env.PATH ?? ''): string | null {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, binary);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

async function versionOf(name: EngineName, binary: string): Promise<string | null> {
  const spec = ENGINES[name].version;
  const dir = makeScratch(`version-${name}`);
  try {
    if (spec.file) fs.writeFileSync(path.join(dir, spec.file.name), spec.file.content);
    const r = await runEngine({
      path: binary,
      args: spec.args,
      cwd: dir,
      input: spec.input ?? '\n',
      threads: 1,
      memoryBytes: 1024 ** 3,
      timeoutMs: 10_000,
      maxOutputBytes: 64 * 1024,
      signal: new AbortController().signal,
      env: engineEnv(1, dir),
    });
    const text = spec.fromFile ? fs.readFileSync(path.join(dir, spec.fromFile), 'utf8') : `${r.stdout}\n${r.stderr}`;
    return spec.pattern.exec(text)?.[1] ?? null;
  } catch {
    return null;
  } finally {
    removeScratch(dir);
  }
}

/**
 * Finds every engine on `pathVar` (the process's PATH by default). An engine counts as available
 * when its program is there and answers its version question.
 */
export async function discoverEngines(pathVar = process.env.PATH ?? ''): Promise<Engines> {
  const found = await Promise.all(
    ENGINE_NAMES.map(async (name): Promise<FoundEngine> => {
      const p = which(ENGINES[name].binary, pathVar);
      const version = p ? await versionOf(name, p) : null;
      return { name, available: p !== null && version !== null, path: p, version };
    }),
  );
  return Object.fromEntries(found.map((f) => [f.name, f])) as Engines;
}

/** Nothing found (a process that must not run engine work). */
export const NO_ENGINES: Engines = Object.fromEntries(ENGINE_NAMES.map((name) => [name, { name, available: false, path: null, version: null }])) as Engines;
