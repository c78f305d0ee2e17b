// The nice value of the calling thread, so that training yields the cores to the API (docs/models.md,
// "Speed"). On Linux the nice value is a thread's own (setpriority(2), "Bugs": NPTL threads do not
// share it), and os.setPriority(0, n) sets the calling thread's; elsewhere it would set the whole
// process's, so it is left alone there.
import os from 'node:os';

/** Sets the calling thread's nice value on Linux; false when not (another platform, or refused). */
export function setThreadNice(nice: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    os.setPriority(0, nice);
    return true;
  } catch {
    return false;
  }
}

/** The calling thread's nice value (Linux), or null. */
export function threadNice(): number | null {
  return process.platform === 'linux' ? os.getPriority(0) : null;
}
