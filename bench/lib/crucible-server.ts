// Child process: one Crucible instance (`startServer`, the code path of `crucible serve`) for
// the benchmark. It creates the benchmark account through the services, tells the parent
// where it listens over IPC, and stops cleanly (deleting that account) when asked.
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/http/server.js';
import { handleProfileCommands } from './child-profiler.js';
import type { ChildReady, ChildStats, ParentCommand } from './protocol.js';

const config = loadConfig();
const server = await startServer(config, () => undefined); // the banner (and any admin password) stays out of the bench output
const email = `bench-${process.pid}-${Date.now().toString(36)}@crucible.local`;
const password = 'bench password, not a secret';
const user = await server.services.users.create(email, password, 'enterprise');
// Wallet credit for benchmarks that run jobs (BENCH_CREDIT_USD).
if (process.env.BENCH_CREDIT_USD) await server.services.wallet.credit(user.id, Math.round(Number(process.env.BENCH_CREDIT_USD) * 1_000_000), 'bench');

const ready: ChildReady = { type: 'ready', url: server.url, pid: process.pid, db: server.services.db.kind, email, password };
process.send!(ready);

handleProfileCommands();

process.on('message', async (msg: ParentCommand) => {
  if (msg.type === 'stats') {
    const elu = performance.eventLoopUtilization();
    const s = server.services.chem.stats();
    process.send!({ type: 'stats', eluActiveMs: elu.active, eluIdleMs: elu.idle, workerBusyMs: s.workerBusyMs, items: s.items, tasks: s.tasks } satisfies ChildStats);
    return;
  }
  if (msg.type !== 'stop') return;
  try {
    // On a shared PostgreSQL database leave nothing behind (sessions and keys cascade); a
    // benchmark that runs jobs (BENCH_CREDIT_USD) drops its own database instead.
    if (!process.env.BENCH_CREDIT_USD)
      await server.services.db.query('DELETE FROM users WHERE id = $1', [user.id]).catch((err) => {
        process.stderr.write(`bench: could not delete the benchmark account ${email}: ${(err as Error).message}\n`);
      });
    await server.stop();
  } finally {
    process.exit(0);
  }
});
