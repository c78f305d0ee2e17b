// What the engine tests share: the engine processes running in a worker's scratch directories
// (found through /proc, as an operator would), and molecules of known sizes.
import fs from 'node:fs';
import { Ajv } from 'ajv';
import path from 'node:path';
import type { Vec3 } from '../../src/engines/qm/ensemble.js';
import { scratchRoot } from '../../src/engines/scratch.js';
import type { Harness } from '../helpers/harness.js';

/** A GFN2 optimisation of this (124 atoms with hydrogens) runs for half a minute or more: long enough to cancel or kill mid-way. */
export const LONG_SMILES = 'CC(C)Cc1ccc(cc1)C(C)C(=O)NCCCCCCCCCCCCc1ccc(cc1)C(C)C(=O)NCCCCCCCCc1ccccc1';

/** Pids of the live processes whose working directory is a scratch directory of process `workerPid`. */
export function engineProcesses(workerPid: number): { pid: number; cmd: string }[] {
  const prefix = path.join(scratchRoot(), `${workerPid}-`);
  const out: { pid: number; cmd: string }[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${name}/cwd`);
      if (!cwd.startsWith(prefix)) continue;
      const state = /\) (\S)/.exec(fs.readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1];
      if (state === 'Z') continue; // dead, waiting to be reaped
      out.push({ pid: Number(name), cmd: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return out;
}

/** Waits until `check` is true, polling every `everyMs`; returns the ms it took, or throws after `timeoutMs`. */
export async function within(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>, everyMs = 20): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await check()) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The dihedral i-j-k-l in degrees. */
export function dihedral(c: readonly Vec3[], [i, j, k, l]: [number, number, number, number]): number {
  const sub = (a: Vec3, b: Vec3) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]] as Vec3;
  const cross = (a: Vec3, b: Vec3) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]] as Vec3;
  const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const b0 = sub(c[j]!, c[i]!);
  const b1 = sub(c[k]!, c[j]!);
  const b2 = sub(c[l]!, c[k]!);
  const n1 = cross(b0, b1);
  const n2 = cross(b1, b2);
  const m = cross(n1, b1);
  return (Math.atan2(dot(m, n2) / Math.hypot(...b1), dot(n1, n2)) * 180) / Math.PI;
}

/** The errors of `result` against the OpenAPI document's schema `name` (e.g. PkaResult), or null when it validates. */
export async function resultSchemaErrors(h: Harness, name: string, result: unknown): Promise<string | null> {
  const doc = (await h.req('GET', '/openapi.json')).body as { components: { schemas: Record<string, object> } };
  const validate = new Ajv({ strict: false, allErrors: true }).compile({ ...doc.components.schemas[name], $id: undefined });
  return validate(result) ? null : JSON.stringify(validate.errors?.slice(0, 5));
}
