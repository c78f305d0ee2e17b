// The `crucible` CLI as real processes: first start, account commands beside a running
// server on the embedded database, graceful shutdown and restart, and two processes racing
// on one fresh PostgreSQL database. Everything is observed through stdout/stderr, exit codes
// and the public HTTP API.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { listMigrations } from '../../src/db/migrate.js';
import { crucibleArgv } from '../helpers/cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LOGIN = '/api/v1/auth/login-email';
const FORM = 'application/x-www-form-urlencoded';

// ---------------------------------------------------------------------------------------
// Child processes

const children = new Set<Cli>();

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

class Cli {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private waiters: (() => void)[] = [];

  constructor(args: string[], env: Record<string, string | undefined>) {
    this.child = spawn(process.execPath, crucibleArgv(args), { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(this);
    this.child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      this.stdout += c;
      this.notify();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (c: string) => {
      this.stderr += c;
      this.notify();
    });
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        children.delete(this);
        this.notify();
        resolve({ code, signal });
      }),
    );
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first match of re in stdout; rejects when the process exits or time runs out. */
  async waitFor(re: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = this.stdout.match(re);
      if (m) return m;
      if (!this.running)
        throw new Error(`process exited (${this.child.exitCode ?? this.child.signalCode}) before printing ${re}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${re}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.running) this.child.kill(signal);
  }
}

/** The parent's environment minus everything Crucible reads, plus the given variables. */
function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(CRUCIBLE_|DATABASE_URL$|PORT$|HOST$|LOG_LEVEL$|NODE_TEST_CONTEXT$|NODE_OPTIONS$)/.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, { LOG_LEVEL: 'warn', CRUCIBLE_WORKERS: '0', CRUCIBLE_CHEM_THREADS: '1' }, extra);
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

/** Runs one CLI command to its end. */
async function run(args: string[], env: Record<string, string | undefined>, timeoutMs = 90_000): Promise<Exit & { stdout: string; stderr: string }> {
  const p = new Cli(args, env);
  const t = setTimeout(() => p.kill(), timeoutMs);
  const exit = await p.exited;
  clearTimeout(t);
  return { ...exit, stdout: p.stdout, stderr: p.stderr };
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const LISTENING = /Crucible listening on (http:\/\/\S+?) /;
const PASSWORD_LINE = /^Admin password \(shown only this once\): (\S+)$/m;

/** `crucible serve` on a free port; resolves once it prints where it listens. */
async function serve(env: Record<string, string | undefined>): Promise<{ proc: Cli; url: string }> {
  const port = await freePort();
  const proc = new Cli(['serve'], { PORT: String(port), HOST: '127.0.0.1', ...env });
  const m = await proc.waitFor(LISTENING, 90_000); // ~5-10 s on a quiet 2-core machine
  assert.equal(m[1], `http://127.0.0.1:${port}`);
  return { proc, url: m[1] };
}

async function stop(proc: Cli): Promise<Exit> {
  proc.kill('SIGTERM');
  return proc.exited;
}

// ---------------------------------------------------------------------------------------
// HTTP

async function login(base: string, username: string, password: string): Promise<{ status: number; body: any }> {
  const r = await fetch(base + LOGIN, { method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams({ username, password }).toString() });
  return { status: r.status, body: await r.json() };
}

async function get(base: string, p: string, headers: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }> {
  const r = await fetch(base + p, { headers });
  return { status: r.status, headers: r.headers, body: await r.json() };
}

/**
 * A request held in flight: it asks `Expect: 100-continue`, so `received` resolves once the
 * server has parsed its headers and answered "100 Continue"; half of the body follows.
 * `finish()` sends the rest and resolves with the answer. By default the connection is not
 * kept alive (`Connection: close`); pass an Agent to keep it open.
 */
function halfSentRequest(base: string, method: string, p: string, headers: Record<string, string>, body: string, agent: http.Agent | false = false) {
  const u = new URL(base + p);
  const buf = Buffer.from(body);
  const half = Math.floor(buf.length / 2);
  const req = http.request({
    agent,
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method,
    headers: { ...headers, 'content-length': String(buf.length), expect: '100-continue' },
  });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (data += c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: data });
        }
      });
    });
  });
  answer.catch(() => undefined); // observed through finish()
  const received = new Promise<void>((resolve, reject) => {
    req.once('continue', () => {
      req.write(buf.subarray(0, half));
      resolve();
    });
    req.once('error', reject);
  });
  req.flushHeaders();
  return {
    received,
    finish() {
      req.end(buf.subarray(half));
      return answer;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

after(() => {
  for (const c of children) c.kill();
});

// ---------------------------------------------------------------------------------------

describe('the crucible CLI as processes', { concurrency: true }, () => {
  describe('embedded database: first start, CLI beside the server, graceful shutdown, restart', { concurrency: 1 }, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-proc-'));
    const env = { CRUCIBLE_DATA_DIR: dataDir };
    let server: { proc: Cli; url: string };
    let adminPassword = '';
    const user = { email: `cli-${crypto.randomBytes(3).toString('hex')}@Example.com`, password: 'a cli-made password' };
    let keyBefore = '';

    after(() => {
      server?.proc.kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('first start prints where it listens and a random admin password exactly once; that password logs in', async () => {
      server = await serve(env);
      const m = await server.proc.waitFor(PASSWORD_LINE);
      assert.ok(m[1], 'the password line carries the password');
      adminPassword = m[1];
      assert.match(server.proc.stdout, /First start: created the admin account admin@crucible\.local \(tier pro\)/);
      assert.ok(adminPassword.length >= 16, 'a long random password');
      const all = server.proc.stdout + server.proc.stderr;
      assert.equal(all.split(adminPassword).length - 1, 1, 'the password appears exactly once in the output');
      assert.equal((await get(server.url, '/api/v1/health/ready', {})).status, 200);

      const ok = await login(server.url, 'admin@crucible.local', adminPassword);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(typeof ok.body.access_token, 'string');
      const bad = await login(server.url, 'admin@crucible.local', adminPassword + 'x');
      assert.equal(bad.status, 401);
    });

    it('users create, set-tier and list work while the server runs on the embedded database', async () => {
      assert.ok(server.proc.running);
      const created = await run(['users', 'create', '--email', user.email, '--password', user.password, '--tier', 'free'], env);
      assert.equal(created.code, 0, created.stderr);
      const u = JSON.parse(created.stdout);
      assert.equal(u.email, user.email);
      assert.equal(u.tier_name, 'free');
      assert.equal(u.tier, 0);

      // The running server sees the account at once: log in through it.
      const l = await login(server.url, user.email.toLowerCase(), user.password);
      assert.equal(l.status, 200, JSON.stringify(l.body));
      const auth = { authorization: `Bearer ${l.body.access_token}` };
      const before = await get(server.url, '/api/v1/auth/check', auth);
      assert.equal(before.status, 200);
      assert.equal(before.headers.get('ratelimit-limit'), '120', 'free tier: 120 requests/min');

      const set = await run(['users', 'set-tier', '--email', user.email, '--tier', 'team'], env);
      assert.equal(set.code, 0, set.stderr);
      assert.equal(JSON.parse(set.stdout).tier_name, 'team');
      // The running server applies the new tier to the existing session.
      const afterSet = await get(server.url, '/api/v1/auth/check', auth);
      assert.equal(afterSet.status, 200);
      assert.equal(afterSet.headers.get('ratelimit-limit'), '1200', 'team tier: 1,200 requests/min');

      const list = await run(['users', 'list'], env);
      assert.equal(list.code, 0, list.stderr);
      const users = JSON.parse(list.stdout) as { email: string; tier_name: string }[];
      assert.deepEqual(users.map((x) => x.email).sort(), ['admin@crucible.local', user.email].sort());
      assert.equal(users.find((x) => x.email === user.email)!.tier_name, 'team');

      // A refused command (duplicate email) says why in one line and exits 1; the server keeps serving.
      const dup = await run(['users', 'create', '--email', user.email.toUpperCase(), '--password', 'another password'], env);
      assert.equal(dup.code, 1);
      assert.equal(dup.stderr.trim().split('\n').length, 1, dup.stderr);
      assert.match(dup.stderr, /already exists/);
      assert.ok(server.proc.running);
      assert.equal((await get(server.url, '/api/v1/health/ready', {})).status, 200);
    });

    it('a command that cannot reach the database exits 1 with one line on stderr', async () => {
      const closed = await freePort();
      const r = await run(['users', 'list'], { ...env, DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/crucible` });
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0] ?? '', /^crucible: .*database/);
    });

    it(
      'a database that refuses the role also says why in one line',
      {
        skip: process.env.CRUCIBLE_TEST_PG_URL === '' && 'no PostgreSQL server',
      },
      async () => {
        const u = new URL(process.env.CRUCIBLE_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
        u.username = `no_such_role_${crypto.randomBytes(3).toString('hex')}`;
        const r = await run(['users', 'list'], { ...env, DATABASE_URL: u.toString() });
        assert.equal(r.code, 1);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      },
    );

    it('SIGTERM lets in-flight requests finish with 200, exits 0, and keeps every committed row', async () => {
      const admin = await login(server.url, 'admin@crucible.local', adminPassword);
      assert.equal(admin.status, 200);
      const token = admin.body.access_token as string;
      const created = await fetch(server.url + '/api/v1/auth/api-keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'before-stop' }),
      });
      assert.equal(created.status, 200);
      keyBefore = ((await created.json()) as { api_key: string }).api_key;
      assert.equal((await get(server.url, '/api/v1/auth/check', { 'x-api-key': keyBefore })).status, 200);

      // In flight when the signal comes: two logins and a key creation, bodies half sent.
      const inFlight = [
        halfSentRequest(server.url, 'POST', LOGIN, { 'content-type': FORM }, new URLSearchParams({ username: user.email, password: user.password }).toString()),
        halfSentRequest(server.url, 'POST', LOGIN, { 'content-type': FORM }, new URLSearchParams({ username: 'admin@crucible.local', password: adminPassword }).toString()),
        halfSentRequest(
          server.url,
          'POST',
          '/api/v1/auth/api-keys',
          { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          JSON.stringify({ name: 'during-stop' }),
        ),
      ];
      await Promise.all(inFlight.map((r) => r.received)); // the server is handling all three
      await sleep(100); // and has their first half-bodies
      server.proc.kill('SIGTERM');
      // It stops taking new connections (or answers them 503) but waits for the three.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const late = await fetch(server.url + '/api/v1/health/live').then(
          (r) => r.status,
          () => 'refused',
        );
        if (late !== 200) break;
        assert.ok(Date.now() < deadline, 'the server still takes new requests 20 s after SIGTERM');
        await sleep(100);
      }
      assert.ok(server.proc.running, 'the server waits for its in-flight requests');

      const answers = await Promise.all(inFlight.map((r) => r.finish()));
      for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
      const during = answers[2];
      assert.ok(during, 'three in-flight answers');
      const keyDuring = during.body.api_key as string;
      assert.match(keyDuring, /^crk_/);

      const exit = await Promise.race([server.proc.exited, sleep(30_000).then(() => null)]);
      assert.deepEqual(exit, { code: 0, signal: null }, `exit after SIGTERM\nstderr:\n${server.proc.stderr}`);
      assert.ok(!fs.existsSync(path.join(dataDir, 'crucible.sock')), 'the admin socket is removed');
      assert.ok(!fs.existsSync(path.join(dataDir, 'pglite.lock')), 'the data dir lock is released');

      // Restart on the same data dir: no new admin, no password, every committed row there.
      server = await serve(env);
      assert.equal((await get(server.url, '/api/v1/auth/check', { 'x-api-key': keyBefore })).status, 200, 'a key created before the stop');
      assert.equal((await get(server.url, '/api/v1/auth/check', { 'x-api-key': keyDuring })).status, 200, 'a key created during the stop');
      assert.equal((await login(server.url, user.email, user.password)).status, 200, 'a user created by the CLI');
      assert.equal((await login(server.url, 'admin@crucible.local', adminPassword)).status, 200, 'the admin');
      const list = await run(['users', 'list'], env);
      assert.equal(list.code, 0, list.stderr);
      assert.equal(JSON.parse(list.stdout).length, 2);

      await sleep(200); // anything printed after the listening line has arrived
      const out = server.proc.stdout + server.proc.stderr;
      assert.doesNotMatch(out, /password/i, 'a second start prints no password');
      assert.doesNotMatch(out, /First start/);
      assert.ok(!out.includes(adminPassword));
    });

    // A keep-alive connection whose request finishes after the signal must not hold the process open.
    it('SIGTERM with a keep-alive client whose request finishes after the signal: exits within 5 s', async () => {
      assert.ok(server.proc.running);
      const agent = new http.Agent({ keepAlive: true, timeout: 120_000 });
      try {
        const body = new URLSearchParams({ username: user.email, password: user.password }).toString();
        const r = halfSentRequest(server.url, 'POST', LOGIN, { 'content-type': FORM }, body, agent);
        await r.received;
        server.proc.kill('SIGTERM');
        await sleep(200);
        assert.equal((await r.finish()).status, 200);
        const exit = await Promise.race([server.proc.exited, sleep(5_000).then(() => null)]);
        assert.deepEqual(exit, { code: 0, signal: null }, 'the server exits once its last response is sent');
      } finally {
        agent.destroy();
        // With the agent gone the connection closes and the server ends; the output still has no password.
        const exit = await Promise.race([server.proc.exited, sleep(5_000).then(() => null)]);
        if (!exit) server.proc.kill();
        assert.doesNotMatch(server.proc.stdout, /password/i);
      }
    });
  });

  const pgAdminUrl = process.env.CRUCIBLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  describe(
    'PostgreSQL: two processes starting at once on one fresh database',
    { concurrency: 1, skip: pgAdminUrl === '' && 'no PostgreSQL server (CRUCIBLE_TEST_PG_URL is empty)' },
    () => {
      const created: string[] = [];

      async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
        const c = new pg.Client({ connectionString: pgAdminUrl });
        await c.connect();
        try {
          return await fn(c);
        } finally {
          await c.end();
        }
      }

      async function freshDatabase(): Promise<string> {
        // Under `npm test` the name carries the run id, so the runner drops it even if this process dies.
        const runId = process.env.CRUCIBLE_TEST_RUN_ID;
        const name = `crucible_t_${runId ? `${runId}_` : ''}mig_${crypto.randomBytes(5).toString('hex')}`;
        await admin((c) => c.query(`CREATE DATABASE "${name}"`));
        created.push(name);
        const u = new URL(pgAdminUrl);
        u.pathname = `/${name}`;
        return u.toString();
      }

      async function inDb<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          return await fn(c);
        } finally {
          await c.end();
        }
      }

      after(async () => {
        for (const name of created) await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(() => undefined);
      });

      it('two `crucible migrate` at once both exit 0 and apply each version once', async () => {
        const url = await freshDatabase();
        const [a, b] = await Promise.all([run(['migrate'], { DATABASE_URL: url }), run(['migrate'], { DATABASE_URL: url })]);
        assert.equal(a.code, 0, a.stderr);
        assert.equal(b.code, 0, b.stderr);
        const expected = listMigrations().map((m) => m.version);
        const rows = await inDb(
          url,
          async (c) => (await c.query<{ version: number; n: number }>('SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version')).rows,
        );
        assert.deepEqual(
          rows.map((r) => r.version),
          expected,
        );
        for (const r of rows) assert.equal(r.n, 1);
        // Between them every migration was applied exactly once.
        const appliedNames = [a.stdout, b.stdout].flatMap((s) => s.match(/^applied: (.*)$/m)?.[1]?.split(', ') ?? []);
        assert.deepEqual(
          appliedNames.sort(),
          listMigrations()
            .map((m) => m.name)
            .sort(),
        );
        const again = await run(['migrate'], { DATABASE_URL: url });
        assert.equal(again.code, 0, again.stderr);
        assert.match(again.stdout, /up to date/);
      });

      it('an API instance without workers, or a worker, on a shared database refuses local artifact storage in one line', async () => {
        const url = await freshDatabase();
        for (const args of [['serve'], ['worker']]) {
          const r = await run(args, { DATABASE_URL: url, CRUCIBLE_WORKERS: args[0] === 'serve' ? '0' : '1' });
          assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
          const lines = r.stderr.trim().split('\n');
          assert.equal(lines.length, 1, r.stderr);
          assert.match(lines[0] ?? '', /^crucible: .*own data directory.*CRUCIBLE_STORAGE=postgres or CRUCIBLE_STORAGE=s3, or CRUCIBLE_STORAGE_SHARED=1/);
        }
      });

      it('two `crucible serve` at once both come up and exactly one admin account exists', async () => {
        const url = await freshDatabase();
        const starting = [serve({ DATABASE_URL: url, CRUCIBLE_STORAGE: 'postgres' }), serve({ DATABASE_URL: url, CRUCIBLE_STORAGE: 'postgres' })];
        const started = await Promise.allSettled(starting);
        for (const s of started) if (s.status === 'fulfilled' && started.some((x) => x.status === 'rejected')) s.value.proc.kill();
        for (const s of started) if (s.status === 'rejected') throw s.reason;
        const [r1, r2] = started;
        assert.ok(r1?.status === 'fulfilled' && r2?.status === 'fulfilled', 'both started');
        const [s1, s2] = [r1.value, r2.value];
        try {
          const users = await inDb(url, async (c) => (await c.query<{ email: string }>('SELECT email FROM users')).rows);
          assert.deepEqual(
            users.map((u) => u.email),
            ['admin@crucible.local'],
          );
          await sleep(200); // the password line follows the listening line
          const printed = [s1, s2].map((s) => s.proc.stdout.match(PASSWORD_LINE)?.[1]).filter((p): p is string => !!p);
          assert.equal(printed.length, 1, `exactly one process printed an admin password:\n${s1.proc.stdout}\n---\n${s2.proc.stdout}`);
          const [password] = printed;
          assert.ok(password);
          // Both serve the same accounts.
          for (const s of [s1, s2]) assert.equal((await login(s.url, 'admin@crucible.local', password)).status, 200);
        } finally {
          const exits = await Promise.all([stop(s1.proc), stop(s2.proc)]);
          assert.deepEqual(exits, [
            { code: 0, signal: null },
            { code: 0, signal: null },
          ]);
        }
      });
    },
  );
});
