#!/usr/bin/env node
// The `crucible` command: serve | worker | migrate | users create|set-tier|list | wallet credit
import { parseArgs } from 'node:util';
import { runAdminCommand, type AdminCommand } from './admin/commands.js';
import { sendAdminCommand, SocketUnavailable } from './admin/socket.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { closeServices, createServices } from './instance.js';
import { UserInputError } from './modules/users/service.js';
import { startServer, startWorker, stopOnSignals } from './server.js';

const USAGE = `usage: crucible <command>
  serve                                   run the API (default)
  migrate                                 apply database migrations and exit
  users create --email E --password P [--tier T]
  users set-tier --email E --tier T       tiers: free, pro, team, enterprise (or 0-3)
  users list
  wallet credit --email E --usd N         add funds to an account's wallet
  worker                                  run compute workers only (shares DATABASE_URL with the API)
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
  const [group, action, ...rest] = argv;
  const values = parseAdminArgs(group, action ?? '', rest);
  const need = (k: 'email' | 'password' | 'tier' | 'usd') => {
    const v = values[k];
    if (!v) throw new UsageError(`${group} ${action} needs --${k}`);
    return v;
  };
  if (group === 'users' && action === 'create') return { op: 'users.create', email: need('email'), password: need('password'), tier: values.tier };
  if (group === 'users' && action === 'set-tier') return { op: 'users.set-tier', email: need('email'), tier: need('tier') };
  if (group === 'users' && action === 'list') return { op: 'users.list' };
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
  const services = await createServices(config, undefined, { queue: false });
  try {
    return await runAdminCommand(services, cmd);
  } finally {
    await closeServices(services);
  }
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      const server = await startServer(config);
      stopOnSignals(server);
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
      const worker = await startWorker(config);
      stopOnSignals(worker);
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
  if (err instanceof DataDirInUseError) {
    process.stderr.write(`crucible: ${err.message}; stop it first, or run this command while it serves so it can go through its admin socket\n`);
    process.exit(1);
  }
  const e = err as NodeJS.ErrnoException;
  // Network errors, and the server's refusals: connection (08), authorisation (28), unknown database (3D).
  if (['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET'].includes(e?.code ?? '') || /^(08|28|3D)[0-9A-Z]{3}$/.test(e?.code ?? '')) {
    process.stderr.write(`crucible: cannot reach the database (${e.code}): ${e.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`crucible: ${e?.stack ?? String(err)}\n`);
  process.exit(1);
});
