// `crucible storage migrate --to <backend>`: copies every artifact object that is not in the
// target backend into it, checks the copy (size and SHA-256 against the row), points the row
// at the copy, then deletes the original. Each artifact moves on its own, so an interrupted run
// loses nothing (a copy made before its row moved is an orphan the sweep removes) and a second
// run carries on where the first stopped (docs/architecture.md, "Artifact storage").
import type { Database } from '../../db/database.js';
import { RoutedStorage, type BackendName } from '../../storage/routed.js';
import type { ArtifactStorage } from '../../storage/storage.js';
import { artifactsStore } from './store.js';

export interface MigrationReport {
  to: BackendName;
  moved: number;
  bytes: number;
  /** Artifacts deleted while they were being copied (their copy is removed). */
  vanished: number;
  /** Artifacts that could not be moved (they stay where they were; run again). */
  failed: { id: string; error: string }[];
}

const BATCH = 100;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

export async function migrateStorage(db: Database, store: ArtifactStorage, to: BackendName, onProgress: (line: string) => void = () => undefined): Promise<MigrationReport> {
  if (!(store instanceof RoutedStorage)) throw new Error('storage migration needs the routed artifact store (src/storage/open.ts)');
  const storage = store;
  const report: MigrationReport = { to, moved: 0, bytes: 0, vanished: 0, failed: [] };
  const prefix = to === 'local' ? '' : `${to}:`;
  let after = FIRST_ID;
  for (;;) {
    const rows = await artifactsStore.notInBackend(db, prefix, after, BATCH);
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      let copyKey: string | null = null;
      try {
        const put = await storage.put(await storage.get(row.storage_key), { backend: to });
        copyKey = put.key;
        if (put.sha256 !== row.sha256 || put.size !== row.size_bytes) {
          throw new Error(`the copy does not match the artifact (${put.size} bytes, sha256 ${put.sha256}; expected ${row.size_bytes} bytes, sha256 ${row.sha256})`);
        }
        if (!(await artifactsStore.moveObject(db, row.id, row.storage_key, put.key))) {
          report.vanished++;
          await storage.delete(put.key).catch(() => false);
          continue;
        }
        copyKey = null;
        report.moved++;
        report.bytes += row.size_bytes;
        // The row names the copy now: the original is no longer read by anyone who reads the row.
        await storage.delete(row.storage_key).catch(() => false);
        if (report.moved % 100 === 0) onProgress(`moved ${report.moved} artifacts (${report.bytes} bytes) to ${to}`);
      } catch (err) {
        if (copyKey) await storage.delete(copyKey).catch(() => false);
        report.failed.push({ id: row.id, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  return report;
}

/** How many artifacts are not yet in `to`. */
export function remainingOutside(db: Database, to: BackendName): Promise<number> {
  return artifactsStore.countNotInBackend(db, to === 'local' ? '' : `${to}:`);
}
