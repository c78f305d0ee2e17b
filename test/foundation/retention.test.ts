// The retention sweep deletes login attempts, idempotency keys, ended sessions and expired
// refresh tokens past their windows, and keeps everything fresh.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { RetentionSweep, SWEEP_LOCK_KEY } from '../../src/modules/auth/retention.js';
import { Scheduler } from '../../src/scheduler.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ago = (days: number) => `(now() - interval '${days} days')`;

for (const backend of BACKENDS) {
  describe(`retention sweep [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    async function count(sql: string, params: unknown[] = []): Promise<number> {
      const [row] = (await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows;
      assert.ok(row, 'count(*) gives a row');
      return row.n;
    }

    async function session(userId: string, opts: { createdDaysAgo: number; revokedDaysAgo?: number }): Promise<string> {
      const { rows } = await h.services.db.query<{ id: string }>(
        `INSERT INTO sessions (user_id, created_at, revoked_at) VALUES ($1, ${ago(opts.createdDaysAgo)}, ${opts.revokedDaysAgo === undefined ? 'NULL' : ago(opts.revokedDaysAgo)}) RETURNING id`,
        [userId],
      );
      assert.ok(rows[0], 'the session is inserted');
      return rows[0].id;
    }

    async function refreshToken(sessionId: string, expiresDaysAgo: number, used = false): Promise<string> {
      const hash = crypto.randomBytes(32).toString('hex');
      await h.services.db.query(`INSERT INTO refresh_tokens (token_hash, session_id, expires_at, used_at) VALUES ($1, $2, ${ago(expiresDaysAgo)}, ${used ? 'now()' : 'NULL'})`, [
        hash,
        sessionId,
      ]);
      return hash;
    }

    it('deletes rows past their windows and keeps fresh ones; live tokens keep working', async () => {
      const u = await h.user();
      const db = h.services.db;
      await db.query(
        `INSERT INTO login_attempts (email_lower, ip, succeeded, created_at) VALUES ('old@x', '10.0.0.1', false, ${ago(2)}), ('new@x', '10.0.0.1', false, ${ago(0.5)})`,
      );
      await db.query(
        `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, created_at, locked_until)
         VALUES ($1, 'old', 'POST', '/x', 'h', 'done', ${ago(31)}, now()), ($1, 'new', 'POST', '/x', 'h', 'done', ${ago(29)}, now())`,
        [u.userId],
      );
      const endedLongAgo = await session(u.userId, { createdDaysAgo: 40, revokedDaysAgo: 31 });
      await refreshToken(endedLongAgo, 5);
      const endedRecently = await session(u.userId, { createdDaysAgo: 40, revokedDaysAgo: 1 });
      const dormant = await session(u.userId, { createdDaysAgo: 70 });
      const dormantToken = await refreshToken(dormant, 31, true);
      const alive = await session(u.userId, { createdDaysAgo: 60 });
      const aliveOldToken = await refreshToken(alive, 31, true);
      const aliveNewToken = await refreshToken(alive, -10);
      const justExpired = await refreshToken(alive, 29, true);

      const { deleted: counts, yielded } = await h.services.retention.runOnce();
      assert.equal(yielded, false);
      assert.ok(counts.login_attempts >= 1 && counts.idempotency_keys === 1 && counts.sessions === 2 && counts.refresh_tokens === 1, JSON.stringify(counts));

      assert.equal(await count(`login_attempts WHERE email_lower = 'old@x'`), 0);
      assert.equal(await count(`login_attempts WHERE email_lower = 'new@x'`), 1);
      assert.deepEqual(
        (await db.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE user_id = $1', [u.userId])).rows.map((r) => r.key),
        ['new'],
      );
      assert.equal(await count('sessions WHERE id = $1', [endedLongAgo]), 0, 'ended more than 30 days ago');
      assert.equal(await count('refresh_tokens WHERE session_id = $1', [endedLongAgo]), 0, 'its tokens go with it');
      assert.equal(await count('sessions WHERE id = $1', [endedRecently]), 1, 'ended recently');
      assert.equal(await count('sessions WHERE id = $1', [dormant]), 0, 'every refresh token expired more than 30 days ago');
      assert.equal(await count('refresh_tokens WHERE token_hash = $1', [dormantToken]), 0);
      assert.equal(await count('sessions WHERE id = $1', [alive]), 1);
      assert.equal(await count('refresh_tokens WHERE token_hash = $1', [aliveOldToken]), 0, 'expired more than 30 days ago');
      assert.equal(await count('refresh_tokens WHERE token_hash = ANY($1)', [[aliveNewToken, justExpired]]), 2);

      // The account's real session is untouched.
      assert.equal((await h.req('GET', '/api/v1/auth/check', { token: u.token })).status, 200);
      assert.equal((await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: u.refresh } })).status, 200);
      assert.equal((await h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: u.password } })).status, 200);

      const again = await h.services.retention.runOnce();
      assert.deepEqual(again.deleted, { login_attempts: 0, idempotency_keys: 0, sessions: 0, refresh_tokens: 0 });
    });

    it('two sweeps at once (as from two instances) both finish, and the rows go once', async () => {
      const db = h.services.db;
      await db.query(`INSERT INTO login_attempts (email_lower, ip, succeeded, created_at) SELECT 'race' || g, '10.0.0.2', false, ${ago(3)} FROM generate_series(1, 50) g`);
      const a = new RetentionSweep(db);
      const b = new RetentionSweep(db);
      const results = await Promise.all([a.runOnce(), b.runOnce()]);
      const deleted = results.reduce((n, r) => n + r.deleted.login_attempts, 0);
      assert.equal(deleted, 50, JSON.stringify(results));
      assert.equal(await count(`login_attempts WHERE email_lower LIKE 'race%'`), 0);
    });

    // PGlite is one process with one connection: no other instance can hold the lock there.
    if (backend.name === 'postgres') {
      it('leaves the sweep to the instance holding its lock (another connection)', async () => {
        const db = h.services.db;
        await db.query(`INSERT INTO login_attempts (email_lower, ip, succeeded, created_at) VALUES ('held@x', '10.0.0.4', false, ${ago(3)})`);
        const other = new pg.Client({ connectionString: h.dbUrl! });
        await other.connect();
        try {
          await other.query('BEGIN');
          await other.query('SELECT pg_advisory_xact_lock($1)', [SWEEP_LOCK_KEY]);
          const held = await new RetentionSweep(db).runOnce();
          assert.equal(held.yielded, true);
          assert.equal(held.deleted.login_attempts, 0);
          assert.equal(await count(`login_attempts WHERE email_lower = 'held@x'`), 1);
          await other.query('COMMIT');
        } finally {
          await other.end();
        }
        const free = await new RetentionSweep(db).runOnce();
        assert.equal(free.yielded, false);
        assert.equal(await count(`login_attempts WHERE email_lower = 'held@x'`), 0);
      });
    }

    it('runs on its timer once started and stops cleanly', async () => {
      const db = h.services.db;
      await db.query(`INSERT INTO login_attempts (email_lower, ip, succeeded, created_at) VALUES ('timer@x', '10.0.0.3', false, ${ago(2)})`);
      const scheduler = new Scheduler({ error: () => undefined });
      scheduler.add(new RetentionSweep(db).task(20, 10));
      const until = Date.now() + 5_000;
      while ((await count(`login_attempts WHERE email_lower = 'timer@x'`)) > 0) {
        assert.ok(Date.now() < until, 'the timer swept within 5 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      await scheduler.stop();
    });
  });
}
