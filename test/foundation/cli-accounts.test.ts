// Account commands as a user runs them: they find the project's data directory from anywhere,
// never create a database by accident, reset a lost password (random and printed once), and
// take a negative credit as a debit that never goes below zero.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { crucibleArgv } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function crucible(args: string[], dataDir: string) {
  return spawnSync(process.execPath, crucibleArgv(args), {
    cwd: ROOT,
    env: { ...process.env, CRUCIBLE_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('account commands', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-cli-accounts-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it("the default data directory is the project root's data/, wherever the command runs", () => {
    const cwd = process.cwd();
    try {
      process.chdir(tmp());
      assert.equal(loadConfig({}).dataDir, path.join(ROOT, 'data'));
      process.chdir(path.join(ROOT, 'src', 'modules'));
      assert.equal(loadConfig({}).dataDir, path.join(ROOT, 'data'));
    } finally {
      process.chdir(cwd);
    }
    assert.equal(loadConfig({ CRUCIBLE_DATA_DIR: '/srv/crucible' }).dataDir, '/srv/crucible', 'CRUCIBLE_DATA_DIR still decides');
  });

  it('an account command on a data directory without a database refuses in one line and creates nothing', () => {
    const empty = tmp();
    const r = crucible(['users', 'list'], empty);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(
      r.stderr,
      `crucible: no Crucible database in ${empty}: start the server once (npm start) or run \`crucible migrate\` to create it, or point CRUCIBLE_DATA_DIR at the data directory of your server\n`,
    );
    assert.deepEqual(fs.readdirSync(empty), [], 'no database was created');
  });

  it('set-password: random and printed once without --password, or the given one; a negative credit is a debit, never below zero', () => {
    const dir = tmp();
    assert.equal(crucible(['migrate'], dir).status, 0);
    const created = crucible(['users', 'create', '--email', 'lost@example.com', '--password', 'first-password-1'], dir);
    assert.equal(created.status, 0, created.stderr);

    const random = crucible(['users', 'set-password', '--email', 'lost@example.com'], dir);
    assert.equal(random.status, 0, random.stderr);
    const out = JSON.parse(random.stdout) as { email: string; password?: string; sessions: string };
    assert.equal(out.email, 'lost@example.com');
    assert.match(out.password ?? '', /^[A-Za-z0-9]{20}$/, 'a random password, printed once');
    const given = crucible(['users', 'set-password', '--email', 'lost@example.com', '--password', 'second-password-2'], dir);
    assert.equal(given.status, 0, given.stderr);
    assert.equal((JSON.parse(given.stdout) as { password?: string }).password, undefined, 'a given password is not echoed');
    const unknown = crucible(['users', 'set-password', '--email', 'nobody@example.com'], dir);
    assert.equal(unknown.status, 1);
    assert.equal(unknown.stderr, 'crucible: no account with the email nobody@example.com\n');

    assert.equal(crucible(['wallet', 'credit', '--email', 'lost@example.com', '--usd', '10'], dir).status, 0);
    const debit = crucible(['wallet', 'credit', '--email', 'lost@example.com', '--usd', '-4'], dir);
    assert.equal(debit.status, 0, debit.stderr);
    assert.equal((JSON.parse(debit.stdout) as { balance_usd: number }).balance_usd, 6);
    const over = crucible(['wallet', 'credit', '--email', 'lost@example.com', '--usd=-7'], dir);
    assert.equal(over.status, 1);
    assert.match(over.stderr, /^crucible: a debit of \$7\.00 would take the wallet below zero: \$6\.00 is available/);
    const after = crucible(['wallet', 'credit', '--email', 'lost@example.com', '--usd', '0.5'], dir);
    assert.equal((JSON.parse(after.stdout) as { balance_usd: number }).balance_usd, 6.5, 'the refused debit took nothing');
  });
});
