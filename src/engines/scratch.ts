// Scratch directories of engine calculations (docs/engines.md): one per calculation under
// <tmp>/crucible-engines, named after the process that made it, removed when the calculation
// ends. A worker that was SIGKILLed cannot remove its own: the next runtime to start on the
// machine removes those whose process is gone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function scratchRoot(): string {
  return path.join(os.tmpdir(), 'crucible-engines');
}

/** A new, empty scratch directory of this process. */
export function makeScratch(label: string): string {
  const root = scratchRoot();
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  return fs.mkdtempSync(path.join(root, `${process.pid}-${label.replace(/[^a-z0-9]/gi, '').slice(0, 16)}-`));
}

export function removeScratch(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the scratch directories of processes that no longer run; returns how many. */
export function sweepScratch(): number {
  let n = 0;
  let entries: string[];
  try {
    entries = fs.readdirSync(scratchRoot());
  } catch {
    return 0;
  }
  for (const name of entries) {
    const pid = Number(name.split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    removeScratch(path.join(scratchRoot(), name));
    n++;
  }
  return n;
}
