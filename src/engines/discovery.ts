// Engine discovery at start (docs/engines.md): each engine of the catalog is looked up on the
// PATH and asked its version. What a process finds decides which job types its workers claim
// (src/compute/queue.ts) and what GET /engines reports; a missing engine is a 503 engine-unavailable at
// estimate and submit naming its Debian package.
import fs from 'node:fs';
import path from 'node:path';
import { ENGINE_NAMES, ENGINES, type EngineName } from './catalog.js';
import { engineEnv, memoryLimit, runEngine, type EngineCall } from './process.js';
import { makeScratch, removeScratch } from './scratch.js';

export interface FoundEngine {
  name: EngineName;
  available: boolean;
  path: string | null;
  version: string | null;
  /** The program it is started through (NWChem: mpirun), where the catalog names one. */
  launcher?: string | null;
}

export type Engines = Readonly<Record<EngineName, FoundEngine>>;

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Every executable `binary` on `PATH`, in its order. */
function whichAll(binary: string, pathVar: string): string[] {
  return pathVar
    .split(path.delimiter)
    .filter((dir) => dir && isExecutable(path.join(dir, binary)))
    .map((dir) => path.join(dir, binary));
}

/** The first executable `binary` on `PATH`, or null. */
export function which(binary: string, pathVar = process.env.PATH ?? ''): string | null {
  return whichAll(binary, pathVar)[0] ?? null;
}

/** The program to start and its arguments: the engine's own, or its launcher's with the engine among them. */
export function commandOf(found: Pick<FoundEngine, 'name' | 'path' | 'launcher'>, args: string[], threads: number): { path: string; args: string[]; env: Record<string, string> } {
  const launcher = ENGINES[found.name].launcher;
  if (!found.path) throw new Error(`${found.name} was not found`);
  if (!launcher) return { path: found.path, args, env: {} };
  if (!found.launcher) throw new Error(`${found.name} needs ${launcher.binary}, which was not found`);
  return { path: found.launcher, args: [...launcher.args(threads, found.path), ...args], env: launcher.env(threads) };
}

/**
 * One calculation of a found engine as runEngine takes it: the command (behind its launcher),
 * the runtime's memory limit for its threads and the engine environment with `env` added.
 */
export function engineCall(
  found: FoundEngine,
  args: string[],
  o: Pick<EngineCall, 'cwd' | 'threads' | 'timeoutMs' | 'signal' | 'input' | 'onStdout' | 'onSpawn'> & { env?: Record<string, string> },
): EngineCall {
  const command = commandOf(found, args, o.threads);
  const { env, ...rest } = o;
  const maxFileBytes = ENGINES[found.name].maxFileBytes;
  return {
    ...rest,
    path: command.path,
    args: command.args,
    memoryBytes: memoryLimit(o.threads),
    ...(maxFileBytes ? { maxFileBytes } : {}),
    env: engineEnv(o.threads, o.cwd, { ...command.env, ...env }),
  };
}

async function versionOf(found: FoundEngine): Promise<string | null> {
  const spec = ENGINES[found.name].version;
  const dir = makeScratch(`version-${found.name}`);
  try {
    if (spec.file) fs.writeFileSync(path.join(dir, spec.file.name), spec.file.content);
    const command = commandOf(found, spec.args, 1);
    const r = await runEngine({
      path: command.path,
      args: command.args,
      cwd: dir,
      input: spec.input ?? '\n',
      threads: 1,
      memoryBytes: 1024 ** 3,
      timeoutMs: 20_000,
      maxOutputBytes: 64 * 1024,
      signal: new AbortController().signal,
      env: engineEnv(1, dir, command.env),
    });
    const text = spec.fromFile ? fs.readFileSync(path.join(dir, spec.fromFile), 'utf8') : `${r.stdout}\n${r.stderr}`;
    return spec.pattern.exec(text)?.[1] ?? null;
  } catch {
    return null;
  } finally {
    removeScratch(dir);
  }
}

/** What this process found, by PATH: asked once per process (Psi4's version question alone takes a second). */
const found = new Map<string, Promise<Engines>>();

/**
 * Finds every engine on `pathVar` (the process's PATH by default). An engine counts as available
 * when its program (and its launcher, where it has one) is there and answers its version
 * question, asked through the launcher. The answer is kept for the process's life: job runtimes
 * started later in the same process (the tests start many) reuse it.
 */
export function discoverEngines(pathVar = process.env.PATH ?? ''): Promise<Engines> {
  let p = found.get(pathVar);
  if (!p) {
    p = lookFor(pathVar);
    found.set(pathVar, p);
  }
  return p;
}

async function lookFor(pathVar: string): Promise<Engines> {
  const each = await Promise.all(
    ENGINE_NAMES.map(async (name): Promise<FoundEngine> => {
      const spec = ENGINES[name];
      const p = which(spec.binary, pathVar);
      const launcher = spec.launcher ? which(spec.launcher.binary, pathVar) : undefined;
      const engine: FoundEngine = { name, available: false, path: p, version: null, ...(spec.launcher ? { launcher } : {}) };
      const version = p && launcher !== null ? await versionOf(engine) : null;
      if (version === null && launcher !== null && spec.firstAnswering)
        for (const other of whichAll(spec.binary, pathVar).slice(1)) {
          const v = await versionOf({ ...engine, path: other });
          if (v !== null) return { ...engine, path: other, available: true, version: v };
        }
      return { ...engine, available: version !== null, version };
    }),
  );
  return Object.fromEntries(each.map((f) => [f.name, f])) as Engines;
}

/** Nothing found (a process that must not run engine work). */
export const NO_ENGINES: Engines = Object.fromEntries(ENGINE_NAMES.map((name) => [name, { name, available: false, path: null, version: null }])) as Engines;
