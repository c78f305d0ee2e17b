// The orphan sweep: expired artifacts, stored objects that no row names, unfinished writes
// and old upload scratch files.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../../db/database.js';
import type { ArtifactStorage } from '../../storage/storage.js';
import { artifactsStore } from './store.js';

export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

/** What the sweep needs of the service (read when used: tests replace the store). */
export interface SweepDeps {
  readonly db: Database;
  readonly storage: ArtifactStorage;
  readonly scratchDir: string;
}

/**
 * Removes: expired artifacts (row, then file); objects older than `minAgeMs` (default one
 * hour) that no row names (a crash between file and row, a failed delete); unfinished
 * writes and upload scratch files older than that. Returns the number of files removed.
 */
export async function sweepOrphans(deps: SweepDeps, opts: { minAgeMs?: number } = {}): Promise<number> {
  const cutoff = Date.now() - (opts.minAgeMs ?? ORPHAN_MIN_AGE_MS);
  let removed = 0;
  for (;;) {
    const expired = await artifactsStore.deleteExpired(deps.db, 500);
    for (const r of expired) if (await deps.storage.delete(r.storage_key).catch(() => false)) removed++;
    if (expired.length < 500) break;
  }
  let batch: string[] = [];
  const flush = async () => {
    const known = await artifactsStore.knownKeys(deps.db, batch);
    for (const key of batch) {
      if (known.has(key)) continue;
      if (await deps.storage.delete(key).catch(() => false)) removed++;
    }
    batch = [];
  };
  for await (const o of deps.storage.list()) {
    if (o.modifiedAt.getTime() > cutoff) continue;
    if (o.temporary) {
      await deps.storage.deleteTemporary(o.key).then(
        () => removed++,
        () => undefined,
      );
      continue;
    }
    batch.push(o.key);
    if (batch.length >= 500) await flush();
  }
  if (batch.length) await flush();
  try {
    for (const name of await fsp.readdir(deps.scratchDir)) {
      const p = path.join(deps.scratchDir, name);
      const s = await fsp.stat(p).catch(() => null);
      if (
        s?.isFile() &&
        s.mtimeMs <= cutoff &&
        (await fsp.unlink(p).then(
          () => true,
          () => false,
        ))
      )
        removed++;
    }
  } catch {
    /* no scratch dir yet */
  }
  return removed;
}
