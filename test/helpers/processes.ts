// `crucible <command>` as a separate process, for the tests that run several processes on one
// PostgreSQL database or SIGKILL one: the test's own CRUCIBLE_*, DATABASE_URL, PORT and HOST are
// not inherited (each process gets exactly `env`), its output is kept for failure messages, and it
// is ready once it says it listens (serve) or runs (worker).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crucibleArgv } from './cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CrucibleProcess {
  child: ChildProcess;
  /** Resolves when it listens or runs; rejects with its output when it exits first. */
  ready: Promise<void>;
  output: () => string;
}

/** Starts `crucible <args>` with `env` (LOG_LEVEL warn and one RDKit thread unless given); `children` collects it for an after() hook to kill. */
export function spawnCrucible(args: string[], env: Record<string, string>, children: ChildProcess[]): CrucibleProcess {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(CRUCIBLE_|DATABASE_URL$|PORT$|HOST$|NODE_TEST_CONTEXT$)/.test(k)));
  const child = spawn(process.execPath, [...(process.env.XPROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), ...crucibleArgv(args)], {
    cwd: ROOT,
    env: { ...clean, LOG_LEVEL: 'warn', CRUCIBLE_CHEM_THREADS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Crucible (worker .* running|listening on)/.test(out)) resolve();
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code, signal) => reject(new Error(`crucible ${args[0]} exited ${code ?? signal}: ${out}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, output: () => out };
}

export interface ServeProcess extends CrucibleProcess {
  base: string;
  dataDir: string;
  /** The first-start admin account (tier and credit from CRUCIBLE_ADMIN_TIER and CRUCIBLE_ADMIN_CREDIT_USD in `env`). */
  admin: { username: string; password: string };
  /** SIGTERM, wait for the exit, remove the data directory. */
  close(): Promise<void>;
}

/**
 * `crucible serve` on the embedded database, on a free port: in a new data directory, or again in
 * `again`'s (a restart; its admin account is kept).
 */
export async function startServe(env: Record<string, string>, children: ChildProcess[], again?: Pick<ServeProcess, 'dataDir' | 'admin'>): Promise<ServeProcess> {
  const dataDir = again?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-serve-'));
  const admin = again?.admin ?? { username: 'admin@crucible.local', password: `admin-${crypto.randomBytes(9).toString('hex')}` };
  const p = spawnCrucible(['serve'], { CRUCIBLE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', CRUCIBLE_ADMIN_PASSWORD: admin.password, ...env }, children);
  await p.ready;
  const base = p.output().match(/listening on (http:\/\/\S+)/)![1]!;
  return {
    ...p,
    base,
    dataDir,
    admin,
    async close() {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        const exited = new Promise((r) => p.child.once('exit', r));
        p.child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
