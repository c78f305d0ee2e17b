#!/usr/bin/env node
// The `crucible` command: serve | worker | migrate | users create|set-tier|list | wallet credit | storage migrate | mcp
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { runAdminCommand, type AdminCommand } from './admin/commands.js';
import { sendAdminCommand, SocketUnavailable } from './admin/socket.js';
import { ConfigError, loadConfig, unsharedStorageProblem, type Config } from './config.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { embeddedDatabaseExists } from './db/pglite.js';
import { redactUrl } from './db/postgres.js';
import { closeServices, createServices } from './instance.js';
import { logDestination } from './log.js';
import { migrateStorage, remainingOutside } from './modules/artifacts/storage-migrate.js';
import { UserInputError } from './modules/users/service.js';
import { shutdownDeadlineMs, startServer, startWorker, stopOnSignals } from './http/server.js';

const USAGE = `usage: crucible <command>
  serve                                   run the API (default)
  migrate                                 apply database migrations and exit
  users create --email E --password P [--tier T]
  users set-tier --email E --tier T       tiers: free, pro, team, enterprise (or 0-3)
  users set-password --email E [--password P]
                                          a new password (random and printed once without
                                          --password); the account's sessions end
  users list
  wallet credit --email E --usd N         add funds to an account's wallet (N < 0: a debit,
                                          never below zero)
  worker                                  run compute workers only (shares DATABASE_URL with the API)
  mcp                                     the MCP server over stdio, for AI assistants: a client of the
                                          server at CRUCIBLE_URL (default http://127.0.0.1:8000) with
                                          the API key in CRUCIBLE_API_KEY (docs/mcp.md)
  storage migrate --to postgres|s3|local  copy every artifact into that store, checked, and delete
                                          the originals; resumable (run it again after a stop)
Configuration comes from the environment (see README).`;

class UsageError extends Error {
  /** brief: one line only (the message points to --help) instead of the whole usage. */
  constructor(
    message: string,
    readonly brief = false,
  ) {
    super(message);
  }
}

const ADMIN_OPTIONS = { email: { type: 'string' }, password: { type: 'string' }, tier: { type: 'string' }, usd: { type: 'string' } } as const;

/** parseArgs, with its errors (unknown option, missing or ambiguous value such as `--usd -1`) as a one-line usage error. */
function parseAdminArgs(group: string, action: string, args: string[]) {
  try {
    return parseArgs({ args, options: ADMIN_OPTIONS, strict: true }).values;
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS_')) throw err;
    const message = (err as Error).message;
    const option = /^Option '(--[\w-]+)/.exec(message)?.[1];
    let detail = message.split('\n')[0];
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
      detail = /ambiguous/.test(message) ? `${option} needs a value; for a value that starts with "-" write ${option}=VALUE (e.g. ${option}=-1)` : `${option} needs a value`;
    }
    throw new UsageError(`${group} ${action}: ${detail} (crucible --help shows the usage)`, true);
  }
}

function adminCommand(argv: string[]): AdminCommand {
  const [group = '', action, ...args] = argv;
  // `--usd -5` (a negative amount as its own argument) is `--usd=-5`: parseArgs would take -5 for an option.
  const rest = args.flatMap((a, i) => (a === '--usd' && /^-\d/.test(args[i + 1] ?? '') ? [] : i > 0 && args[i - 1] === '--usd' && /^-\d/.test(a) ? [`--usd=${a}`] : [a]));
  const values = parseAdminArgs(group, action ?? '', rest);
  const need = (k: 'email' | 'password' | 'tier' | 'usd') => {
    const v = values[k];
    if (!v) throw new UsageError(`${group} ${action} needs --${k}`);
    return v;
  };
  if (group === 'users' && action === 'create') return { op: 'users.create', email: need('email'), password: need('password'), tier: values.tier };
  if (group === 'users' && action === 'set-tier') return { op: 'users.set-tier', email: need('email'), tier: need('tier') };
  if (group === 'users' && action === 'list') return { op: 'users.list' };
  if (group === 'users' && action === 'set-password') return { op: 'users.set-password', email: need('email'), ...(values.password ? { password: values.password } : {}) };
  if (group === 'wallet' && action === 'credit') {
    const usd = Number(need('usd'));
    if (!Number.isFinite(usd)) throw new UsageError(`--usd must be a number, got "${values.usd}"`);
    return { op: 'wallet.credit', email: need('email'), usd };
  }
  throw new UsageError(`unknown command: ${argv.join(' ')}`);
}

/** Through the running server's socket when one serves the embedded database, else directly. */
async function runAdmin(config: Config, cmd: AdminCommand): Promise<unknown> {
  if (!config.databaseUrl) {
    try {
      return await sendAdminCommand(config.dataDir, cmd);
    } catch (err) {
      if (!(err instanceof SocketUnavailable)) throw err;
    }
  }
  // An account command never creates a database: with none in the data dir it says where it looked.
  if (!config.databaseUrl && !embeddedDatabaseExists(config.dataDir)) {
    throw new UsageError(
      `no Crucible database in ${config.dataDir}: start the server once (npm start) or run \`crucible migrate\` to create it, or point CRUCIBLE_DATA_DIR at the data directory of your server`,
      true,
    );
  }
  const services = await createServices(config, undefined, { queue: false });
  try {
    return await runAdminCommand(services, cmd);
  } finally {
    await closeServices(services);
  }
}

function refuseUnsharedStorage(config: Config, mode: 'serve' | 'worker'): void {
  const problem = unsharedStorageProblem(config, mode);
  if (problem) throw new ConfigError(problem);
}

async function storageCommand(config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'migrate') throw new UsageError(`unknown command: storage ${args.join(' ')}`);
  let to: string | undefined;
  try {
    to = parseArgs({ args: rest, options: { to: { type: 'string' } }, strict: true }).values.to;
  } catch (err) {
    throw new UsageError(`storage migrate: ${(err as Error).message.split('\n')[0]} (crucible --help shows the usage)`, true);
  }
  if (to !== 'postgres' && to !== 's3' && to !== 'local') throw new UsageError('storage migrate needs --to postgres, --to s3 or --to local', true);
  if (to === 's3' && !config.storage.s3) throw new ConfigError('storage migrate --to s3 needs CRUCIBLE_S3_BUCKET and the other CRUCIBLE_S3_* settings');
  const services = await createServices(config, undefined, { queue: false });
  try {
    const report = await migrateStorage(services.db, services.artifacts.storage, to, (line) => process.stdout.write(line + '\n'));
    const left = await remainingOutside(services.db, to);
    process.stdout.write(JSON.stringify({ ...report, remaining: left }, null, 2) + '\n');
    if (report.failed.length)
      throw new UserInputError(`${report.failed.length} artifacts could not be moved (listed above); they are still readable where they were: run the command again`);
    if (config.storage.backend !== to)
      process.stdout.write(
        `all artifacts are in ${to}: set CRUCIBLE_STORAGE=${to} on every instance and restart them, then run this command once more for anything written before the restart\n`,
      );
  } finally {
    await closeServices(services);
  }
}

/** What the failing command was run with, for its one-line error. */
const running: { command: string; config: Config | null } = { command: 'serve', config: null };

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  running.command = command;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const config = loadConfig();
  running.config = config;
  switch (command) {
    case 'serve': {
      refuseUnsharedStorage(config, 'serve');
      const signals = stopOnSignals(shutdownDeadlineMs(config), pino({ level: config.logLevel }, logDestination()));
      signals.attach(await startServer(config));
      return;
    }
    case 'migrate': {
      const db = await openDatabase(config);
      try {
        const applied = await migrate(db);
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'the database is up to date\n');
      } finally {
        await db.close();
      }
      return;
    }
    case 'worker': {
      refuseUnsharedStorage(config, 'worker');
      const signals = stopOnSignals(shutdownDeadlineMs(config), pino({ level: config.logLevel }, logDestination()));
      signals.attach(await startWorker(config));
      return;
    }
    case 'storage': {
      await storageCommand(config, argv.slice(1));
      return;
    }
    case 'mcp': {
      // stdout carries MCP messages only: nothing else of this command writes there.
      const { runStdioRelay, McpSetupError } = await import('./mcp/stdio.js');
      await runStdioRelay().catch((err: unknown) => {
        throw err instanceof McpSetupError ? new UsageError(`mcp: ${err.message}`, true) : err;
      });
      return;
    }
    case 'wallet':
    case 'users': {
      const result = await runAdmin(config, adminCommand(argv));
      process.stdout.write(JSON.stringify(result, null, 2) + '\n');
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(err.brief ? `crucible: ${err.message}\n` : `crucible: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (err instanceof ConfigError || err instanceof UserInputError) {
    process.stderr.write(`crucible: ${err.message}\n`);
    process.exit(1);
  }
  if (err instanceof DataDirInUseError && (running.command === 'serve' || running.command === 'worker' || running.command === 'migrate')) {
    process.stderr.write(`crucible: ${err.message} (a crucible serve already running?): stop it first, or give this one its own data directory with CRUCIBLE_DATA_DIR=\n`);
    process.exit(1);
  }
  if (err instanceof DataDirInUseError) {
    process.stderr.write(
      `crucible: ${err.message}, and no server answers on its admin socket (${err.lockFile.replace(/[^/]+$/, 'crucible.sock')}): that process is a worker, a migration or a server that is not answering; stop it, then run this command again (or run it while \`crucible serve\` runs: it then goes through the server)\n`,
    );
    process.exit(1);
  }
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  const config = running.config;
  if (e?.code === 'EADDRINUSE' && config) {
    process.stderr.write(`crucible: port ${config.port} on ${config.host} is already in use: stop what holds it, or choose another port, e.g. PORT=${config.port + 1} npm start\n`);
    process.exit(1);
  }
  if (e?.code === 'EADDRNOTAVAIL' && config) {
    process.stderr.write(`crucible: cannot listen on ${config.host}: no such address on this machine; set HOST= to one of its addresses (e.g. HOST=127.0.0.1)\n`);
    process.exit(1);
  }
  if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR'].includes(e?.code ?? '') && config && typeof e.path === 'string' && e.path.startsWith(config.dataDir)) {
    process.stderr.write(
      `crucible: the data directory ${config.dataDir} is not writable (${e.code} on ${e.path}): fix its permissions, or choose another with CRUCIBLE_DATA_DIR=\n`,
    );
    process.exit(1);
  }
  // Network errors, and the server's refusals: connection (08), authorisation (28), unknown database (3D).
  if (['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', 'EAI_AGAIN'].includes(e?.code ?? '') || /^(08|28|3D)[0-9A-Z]{3}$/.test(e?.code ?? '')) {
    // The driver's message names the URL (password masked) when it could not connect at all.
    const message = e.message.startsWith('cannot reach the database')
      ? e.message
      : `cannot reach the database${config?.databaseUrl ? ` at ${redactUrl(config.databaseUrl)}` : ''}: ${e.message}`;
    process.stderr.write(`crucible: ${message} (${e.code})\n`);
    process.exit(1);
  }
  process.stderr.write(`crucible: ${e?.stack ?? String(err)}\n`);
  process.exit(1);
});
