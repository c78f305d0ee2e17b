// The raw pg-boss baseline of bench/jobs.ts: the pg-boss the project uses (node_modules), on the
// same PostgreSQL server, in a fresh database of its own, with nothing of Crucible's. A load
// generator child (bench/lib/jobs-load.ts) sends no-op messages with the same number of
// concurrent clients as the Crucible run; `workers` loops in this process (the same count as
// Crucible's worker slots) each fetch one message, do nothing with it, and complete it.
import PgBoss from 'pg-boss';
import { freshPgDatabase } from './pg.js';
import { measureWindow, startLoadChild, warmUp, type WindowResult } from './jobs-window.js';

const QUEUE = 'bench-raw';

export async function rawPgBoss(adminUrl: string, o: { n: number; warmup: number; workers: number; clients: number; profileFile: string | null }): Promise<WindowResult> {
  const db = await freshPgDatabase(adminUrl, 'crucible_bench_raw');
  // The same settings as Crucible's JobQueue on PostgreSQL (src/compute/queue.ts).
  const boss = new PgBoss({ connectionString: db.url, schema: 'pgboss', schedule: false, supervise: true, migrate: true, max: 4 });
  boss.on('error', () => undefined);
  let child: Awaited<ReturnType<typeof startLoadChild>> | null = null;
  try {
    await boss.start();
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard', retryLimit: 0 });
    child = await startLoadChild({ type: 'setup', mode: 'pgboss', url: db.url, queue: QUEUE, clients: o.clients });
    let completed = 0;
    let target = 0;
    const work = async () => {
      while (completed < target) {
        const [m] = await boss.fetch<{ i: number }>(QUEUE, { batchSize: 1 });
        if (!m) {
          await new Promise((r) => setTimeout(r, 2)); // nothing queued yet: look again very soon
          continue;
        }
        await boss.complete(QUEUE, m.id);
        completed++;
      }
    };
    const workers = () => Promise.all(Array.from({ length: o.workers }, work)).then(() => undefined);
    target = o.warmup;
    await warmUp(child, o.warmup, workers);
    target += o.n;
    return await measureWindow(child, o.n, workers, o.profileFile, db.url);
  } finally {
    await child?.stop();
    await boss.stop({ graceful: false, wait: true, close: true }).catch(() => undefined);
    await db.drop();
  }
}
