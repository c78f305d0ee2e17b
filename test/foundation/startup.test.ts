// Start-up failures a new user meets are one clear line, and a first start that fails after
// creating the admin account has already printed its password (which then logs in).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { crucibleArgv } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function run(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, crucibleArgv(args), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    encoding: 'utf8',
    timeout: 90_000,
  });
}

async function freePort(): Promise<{ port: number; hold: net.Server }> {
  const hold = net.createServer();
  await new Promise<void>((r) => hold.listen(0, '127.0.0.1', r));
  return { port: (hold.address() as net.AddressInfo).port, hold };
}

describe('start-up failures', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-startup-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('port in use: one line naming the port and PORT=; the admin password was printed before, and it logs in later', async () => {
    const dataDir = tmp();
    const { port, hold } = await freePort();
    let r: ReturnType<typeof run>;
    try {
      r = run(['serve'], { PORT: String(port), CRUCIBLE_DATA_DIR: dataDir });
    } finally {
      hold.close();
    }
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `crucible: port ${port} on 127.0.0.1 is already in use: stop what holds it, or choose another port, e.g. PORT=${port + 1} npm start\n`);
    const password = /Admin password \(shown only this once\): (\S+)/.exec(r.stdout)?.[1];
    assert.ok(password, `the password was printed before the failure:\n${r.stdout}`);

    // The next start creates nothing and prints no password; the printed one logs in.
    const child = spawn(process.execPath, crucibleArgv(['serve']), {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', PORT: '0', CRUCIBLE_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /Crucible listening on (http:\/\/\S+?) /.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      assert.doesNotMatch(out, /Admin password/);
      const login = await fetch(`${url}/api/v1/auth/login-email`, { method: 'POST', body: new URLSearchParams({ username: 'admin@crucible.local', password }) });
      assert.equal(login.status, 200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('data directory not writable, database unreachable (password masked), data directory in use: one line each, no stack', async () => {
    const file = path.join(tmp(), 'a-file');
    fs.writeFileSync(file, 'not a directory');
    const notDir = run(['serve'], { PORT: '0', CRUCIBLE_DATA_DIR: path.join(file, 'data') });
    assert.equal(notDir.status, 1);
    assert.match(
      notDir.stderr,
      new RegExp(
        `^crucible: the data directory ${path.join(file, 'data')} is not writable \\(ENOTDIR on [^)]+\\): fix its permissions, or choose another with CRUCIBLE_DATA_DIR=\\n$`,
      ),
    );

    const { port, hold } = await freePort();
    hold.close();
    await new Promise((r) => setTimeout(r, 50));
    const db = run(['serve'], { PORT: '0', CRUCIBLE_DATA_DIR: tmp(), DATABASE_URL: `postgres://crucible:s3cret-pw@127.0.0.1:${port}/crucible` });
    assert.equal(db.status, 1);
    assert.match(db.stderr, new RegExp(`^crucible: cannot reach the database at postgres://crucible:\\*\\*\\*@127\\.0\\.0\\.1:${port}/crucible: .*\\(ECONNREFUSED\\)\\n$`));
    assert.ok(!db.stderr.includes('s3cret-pw'), 'the password is masked');
    assert.equal(db.stderr.trim().split('\n').length, 1);

    const dataDir = tmp();
    const first = spawn(process.execPath, crucibleArgv(['serve']), {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', PORT: '0', CRUCIBLE_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        first.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('Crucible listening on')) resolve();
        });
        first.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const second = run(['serve'], { PORT: '0', CRUCIBLE_DATA_DIR: dataDir });
      assert.equal(second.status, 1);
      assert.equal(
        second.stderr,
        `crucible: the embedded database in ${dataDir} is open in process ${first.pid} (a crucible serve already running?): stop it first, or give this one its own data directory with CRUCIBLE_DATA_DIR=\n`,
      );
    } finally {
      first.kill('SIGTERM');
      await new Promise((r) => first.once('exit', r));
    }
  });

  it('first start: the admin login is the last thing printed, after the listening line, set apart by blank lines and rules', async () => {
    const dataDir = tmp();
    // stdout and stderr into one file, in the order they were written, with the logs at info.
    const file = path.join(dataDir, 'out.txt');
    const fd = fs.openSync(file, 'w');
    const child = spawn(process.execPath, crucibleArgv(['serve']), {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: '', PORT: '0', CRUCIBLE_DATA_DIR: path.join(dataDir, 'data') },
      stdio: ['ignore', fd, fd],
    });
    fs.closeSync(fd);
    try {
      const deadline = Date.now() + 240_000; // a first start migrates a new database: slow on a loaded machine
      while (!/Crucible listening on/.test(fs.readFileSync(file, 'utf8')) || !/Admin password/.test(fs.readFileSync(file, 'utf8'))) {
        assert.ok(Date.now() < deadline && child.exitCode === null, `no start:\n${fs.readFileSync(file, 'utf8')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1500)); // whatever start-up still writes
      const text = fs.readFileSync(file, 'utf8');
      const lines = text.replace(/\n+$/, '').split('\n');
      const rule = '='.repeat(72);
      const last = lines.slice(-6);
      assert.equal(last[0], '', `a blank line first:\n${text.slice(-1500)}`);
      assert.equal(last[1], rule);
      assert.equal(last[2], 'First start: created the admin account admin@crucible.local (tier pro).');
      assert.match(last[3]!, /^Admin password \(shown only this once\): \S{16,}$/);
      assert.match(last[4]!, /^Sign in to the web console/);
      assert.equal(last[5], rule, 'the rule is the last line printed');
      assert.ok(text.indexOf('Crucible listening on') < text.indexOf('First start'), 'after the listening line');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
