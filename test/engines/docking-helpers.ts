// What the docking tests share: the complexes of data/public/docking (Vina's examples), uploads,
// and the RMSD of a pose to the crystal ligand (Open Babel's obrms without -m: in place, no
// superposition, symmetry-aware over the heavy atoms).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Harness } from '../helpers/harness.js';

export const DOCKING_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/public/docking');
export const readData = (name: string) => fs.readFileSync(path.join(DOCKING_DATA, name), 'utf8');

/** The Vina box of a complex (its .box.txt). */
export function boxOf(name: '1iep' | '5x72'): { center: number[]; size: number[] } {
  const v = Object.fromEntries(
    readData(`${name}_receptor.box.txt`)
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => l.split('=').map((x) => x.trim())),
  ) as Record<string, string>;
  return { center: ['x', 'y', 'z'].map((a) => Number(v[`center_${a}`])), size: ['x', 'y', 'z'].map((a) => Number(v[`size_${a}`])) };
}

/** The crystal ligands as SMILES (stereo kept; no coordinates). */
export const P59_SMILES = 'Fc1ccccc1[C@@H]1Nc2ccccc2C(=O)N1c1ccccc1';
export const IMATINIB_SMILES = 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1';

/** Uploads a file (mode file) and returns the artifact id. */
export async function uploadFile(h: Harness, token: string, name: string, content: string | Buffer): Promise<string> {
  const form = new FormData();
  form.append('mode', 'file');
  form.append('file', new Blob([content], { type: 'application/octet-stream' }), name);
  const r = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await r.json()) as { id: string };
  assert.equal(r.status, 201, JSON.stringify(body));
  return body.id;
}

export async function download(h: Harness, token: string, artifactId: string, port: string, record?: string): Promise<string> {
  const q = record ? `record=${encodeURIComponent(record)}&port=${port}` : `port=${port}`;
  const r = await fetch(`${h.base}/api/v1/artifacts/${artifactId}/download?${q}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200, `${port}/${record}`);
  return r.text();
}

/** In-place, symmetry-aware heavy-atom RMSD of a pose molblock to a crystal SDF file (obrms). */
export function rmsdToCrystal(crystalFile: string, molblock: string): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-rmsd-'));
  try {
    const pose = path.join(dir, 'pose.sdf');
    fs.writeFileSync(pose, `${molblock.replace(/\s*$/, '\n')}$$$$\n`);
    const out = execFileSync('obrms', [path.join(DOCKING_DATA, crystalFile), pose], { encoding: 'utf8' });
    const v = Number(out.trim().split(/\s+/).pop());
    assert.ok(Number.isFinite(v), `obrms: ${out}`);
    return v;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Element symbols of a V2000 molblock, in atom order. */
export function symbolsOf(molblock: string): string[] {
  const lines = molblock.split('\n');
  const n = Number(lines[3]!.slice(0, 3));
  return lines.slice(4, 4 + n).map((l) => l.slice(31, 34).trim());
}

/** The coordinate block of a molblock (atom lines), for comparing poses. */
export function atomBlock(molblock: string): string {
  const lines = molblock.split('\n');
  const n = Number(lines[3]!.slice(0, 3));
  return lines.slice(4, 4 + n).join('\n');
}

/** 1IEP's receptor with its imatinib (STI, 37 heavy atoms), a copy of it 20 A along x named XYZ, and a glycerol (GOL, an additive): two ligands. */
export function twoLigandReceptor(): string {
  const pdb = readData('1iep_receptorH.pdb').replace(/END\s*$/, '');
  const atom = (serial: number, el: string, res: string, seq: number, x: number, y: number, z: number) =>
    `HETATM${String(serial).padStart(5)}  ${el.padEnd(3)} ${res} B${String(seq).padStart(4)}    ${[x, y, z].map((v) => v.toFixed(3).padStart(8)).join('')}  1.00  0.00          ${el.padStart(2)}`;
  const sti = readData('1iep_ligand.sdf')
    .split('\n')
    .slice(4, 4 + 69)
    .map((l) => [Number(l.slice(0, 10)), Number(l.slice(10, 20)), Number(l.slice(20, 30)), l.slice(31, 34).trim()] as const)
    .filter(([, , , el]) => el !== 'H');
  const het = (res: string, seq: number, dx: number) => sti.map(([x, y, z, el], i) => atom(9000 + seq * 100 + i, el, res, seq, x + dx, y, z));
  const glycerol = ['C', 'C', 'C', 'O', 'O', 'O'].map((el, i) => atom(9500 + i, el, 'GOL', 3, 20 + i, 50, 10));
  return `${pdb}${[...het('STI', 1, 0), ...het('XYZ', 2, 20), ...glycerol].join('\n')}\nEND\n`;
}
