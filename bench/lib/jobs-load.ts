// Child process: the load generator of bench/jobs.ts, in its own process so that the server
// (or the raw pg-boss workers) being measured does not share its event loop with the clients.
// Two modes, the same for both sides of the comparison:
//   http:   `clients` concurrent clients POST /jobs/submit one-molecule `properties` jobs;
//   pgboss: `clients` concurrent senders boss.send() no-op messages (the raw pg-boss baseline).
// Protocol (IPC): parent sends LoadCommand; child answers { type: 'ready' } once set up, then
// { type: 'sent', seconds } when every job is submitted; { type: 'stop' } ends it.
import http from 'node:http';
import PgBoss from 'pg-boss';

export type LoadCommand =
  | { type: 'setup'; mode: 'http'; base: string; token: string; clients: number; job: unknown }
  | { type: 'setup'; mode: 'pgboss'; url: string; queue: string; clients: number }
  /** Submit `n` jobs (a warm-up, then the measured window). */
  | { type: 'go'; n: number }
  | { type: 'stop' };

export type LoadReply = { type: 'ready' } | { type: 'sent'; seconds: number } | { type: 'failed'; error: string };

let send: ((i: number) => Promise<void>) | null = null;
let boss: PgBoss | null = null;
let setup: Extract<LoadCommand, { type: 'setup' }> | null = null;

const reply = (r: LoadReply) => process.send!(r);

async function onSetup(cmd: Extract<LoadCommand, { type: 'setup' }>): Promise<void> {
  setup = cmd;
  if (cmd.mode === 'http') {
    // node:http with keep-alive connections, one per client (cheaper per request than fetch).
    const agent = new http.Agent({ keepAlive: true, maxSockets: cmd.clients });
    const url = new URL(`${cmd.base}/api/v1/jobs/submit`);
    const job = cmd.job as Record<string, unknown>;
    send = (i) =>
      new Promise<void>((resolve, reject) => {
        const body = JSON.stringify({ job_name: `tput-${i}`, ...job });
        const req = http.request(
          url,
          { method: 'POST', agent, headers: { authorization: `Bearer ${cmd.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`POST /jobs/submit: ${res.statusCode} ${Buffer.concat(chunks).toString()}`))));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
  } else {
    // The same pool size as Crucible's API (pg.Pool default 10): each sender holds one connection at a time.
    boss = new PgBoss({ connectionString: cmd.url, schema: 'pgboss', schedule: false, supervise: false, migrate: false, max: 10 });
    boss.on('error', () => undefined);
    await boss.start();
    send = async (i) => {
      const id = await boss!.send(cmd.queue, { i }, { retryLimit: 0, expireInSeconds: 60 });
      if (!id) throw new Error('pg-boss refused a message');
    };
  }
  reply({ type: 'ready' });
}

let total = 0;

async function onGo(n: number): Promise<void> {
  const { clients } = setup!;
  const t0 = performance.now();
  const end = total + n;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (total < end) await send!(total++);
    }),
  );
  reply({ type: 'sent', seconds: (performance.now() - t0) / 1000 });
}

process.on('message', (cmd: LoadCommand) => {
  const run = cmd.type === 'setup' ? onSetup(cmd) : cmd.type === 'go' ? onGo(cmd.n) : null;
  if (cmd.type === 'stop') {
    void (async () => {
      await boss?.stop({ graceful: false, wait: true, close: true }).catch(() => undefined);
      process.exit(0);
    })();
    return;
  }
  run?.catch((err: unknown) => {
    reply({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  });
});
