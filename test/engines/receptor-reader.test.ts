// The receptor reader's thread (src/engines/docking/receptor-reader.ts) holds its process only
// while a request is pending: a process whose last read has been answered exits at once, not
// after the reader's idle minute (every docking test file's process once lived a minute past
// its tests).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LIGAND = [
  'HETATM    1  C1  LIG A   1       1.000   2.000   3.000  1.00  0.00           C',
  'HETATM    2  C2  LIG A   1       2.500   2.000   3.000  1.00  0.00           C',
  'END',
].join('\n');

it('a process whose receptor reads are answered exits at once, not after the idle minute', { timeout: 60_000 }, () => {
  const script = `
    const { referenceBoxOffLoop } = await import(${JSON.stringify(path.join(ROOT, 'src/engines/docking/receptor-reader.ts'))});
    const box = await referenceBoxOffLoop(${JSON.stringify(LIGAND)}, 5);
    console.log(JSON.stringify(box));
    globalThis.answeredAt = Date.now();
    process.on('exit', () => console.log('exit after', Date.now() - globalThis.answeredAt));
  `;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-reader-')), 'read.mts');
  fs.writeFileSync(file, script);
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8', timeout: 50_000 });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  assert.equal(r.status, 0, r.stderr);
  const [boxLine, exitLine] = r.stdout.trim().split('\n');
  const box = JSON.parse(boxLine!) as { center: number[]; size: number[] };
  assert.deepEqual(box.center, [1.75, 2, 3], 'the answer came from the thread');
  const after = Number(/exit after (\d+)/.exec(exitLine ?? '')?.[1]);
  assert.ok(after < 5_000, `exited ${after} ms after its last answer (the reader's idle time is 60 s); whole run ${Date.now() - started} ms`);
});
