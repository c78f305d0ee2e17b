import fs from 'node:fs';

export class DataDirInUseError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(`the embedded database in ${lockFile.replace(/\/[^/]+$/, '')} is open in process ${pid}`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** An exclusive pid lock file: two processes never open the same embedded database. */
export class DataDirLock {
  private constructor(private readonly file: string) {}

  static acquire(file: string): DataDirLock {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
        return new DataDirLock(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const pid = Number(fs.readFileSync(file, 'utf8').trim());
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DataDirInUseError(file, pid);
        fs.rmSync(file, { force: true }); // stale: its process is gone
      }
    }
    throw new Error(`could not take the lock ${file}`);
  }

  release(): void {
    try {
      if (fs.readFileSync(this.file, 'utf8').trim() === String(process.pid)) fs.rmSync(this.file, { force: true });
    } catch {
      /* already gone */
    }
  }
}
