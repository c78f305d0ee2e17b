// Request rate limits across API instances (docs/architecture.md, "Decisions": rate limits
// across instances): three instances on one PostgreSQL database admit a credential its tier figure
// within 10 %, however its requests are spread; a database that fails while counting never
// fails a request (each instance then counts alone, and adds its counts once the database answers).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openPostgres } from '../../src/db/postgres.js';
import { buildApp } from '../../src/http/app.js';
import { RateLimiter } from '../../src/http/rate-limit.js';
import type { RateWindowStore, WindowDelta } from '../../src/http/rate-sync.js';
import { closeServices, createServices } from '../../src/instance.js';
import type { Services } from '../../src/services.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const postgres = BACKENDS.find((b) => b.name === 'postgres');
const LIMIT = 100;
const CHECK = '/api/v1/auth/check';

interface Tally {
  ok: number;
  limited: number;
  other: number[];
  /** Every 429 carried Retry-After (1..60), RateLimit-Remaining 0 and the rate-limited problem. */
  wellFormed429: boolean;
}

describe(
  'rate limits across instances on one PostgreSQL database',
  { skip: postgres ? false : 'CRUCIBLE_TEST_PG_URL is empty: no PostgreSQL server, so no instances to share counts' },
  () => {
    let h: Harness;
    const others: { services: Services; app: FastifyInstance; base: string }[] = [];
    let bases: string[] = [];

    before(async () => {
      h = await startHarness(postgres!, { CRUCIBLE_TIER_FREE_REQUESTS_PER_MINUTE: String(LIMIT) });
      for (let i = 0; i < 2; i++) {
        const db = await openPostgres(h.dbUrl!);
        const services = await createServices(h.config, db, { queue: false });
        const app = await buildApp(services, { logger: false });
        await app.listen({ host: '127.0.0.1', port: 0 });
        const { port } = app.server.address() as { port: number };
        others.push({ services, app, base: `http://127.0.0.1:${port}` });
      }
      bases = [h.base, ...others.map((o) => o.base)];
    });

    after(async () => {
      for (const o of others) {
        await o.app.close();
        await closeServices(o.services).catch(() => undefined);
      }
      await h?.close();
    });

    async function check(base: string, secret: string): Promise<Response> {
      const r = await fetch(base + CHECK, { headers: { 'x-api-key': secret } });
      await r.arrayBuffer();
      return r;
    }

    /** `total` requests round-robin over `targets`, `concurrency` at a time, as fast as they go. */
    async function burst(targets: string[], secret: string, total: number, concurrency: number): Promise<Tally> {
      const t: Tally = { ok: 0, limited: 0, other: [], wellFormed429: true };
      let next = 0;
      const worker = async () => {
        while (next < total) {
          const i = next++;
          const r = await fetch(targets[i % targets.length]! + CHECK, { headers: { 'x-api-key': secret } });
          const body = (await r.json()) as { type?: string };
          if (r.status === 200) t.ok++;
          else if (r.status === 429) {
            t.limited++;
            const ra = Number(r.headers.get('retry-after'));
            const good = ra >= 1 && ra <= 60 && r.headers.get('ratelimit-remaining') === '0' && body.type === '/api/v1/problems/rate-limited';
            t.wellFormed429 &&= good;
          } else t.other.push(r.status);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return t;
    }

    /**
     * A new free-tier API key, and how many of its requests already count in the window the test
     * will use: one probe, unless its window ends within 8 s (then the test waits for the next).
     */
    async function freshKey(): Promise<{ id: string; secret: string; used: number }> {
      const u = await h.user({ tier: 'free' });
      const k = await h.key(u.token);
      const probe = await check(bases[0]!, k.secret);
      assert.equal(probe.status, 200);
      assert.equal(probe.headers.get('ratelimit-limit'), String(LIMIT));
      const reset = Number(probe.headers.get('ratelimit-reset'));
      if (reset > 8) return { ...k, used: 1 };
      await sleep(reset * 1000 + 300);
      return { ...k, used: 0 };
    }

    async function storedCount(id: string): Promise<number> {
      const { rows } = await h.services.db.query<{ count: number }>('SELECT count FROM rate_windows WHERE credential = $1 ORDER BY window_start DESC LIMIT 1', [`key:${id}`]);
      return rows[0]?.count ?? 0;
    }

    for (const concurrency of [6, 30]) {
      it(`admits the tier figure within 10 % over three instances (3x the figure, ${concurrency} at a time)`, async (t) => {
        const k = await freshKey();
        const started = Date.now();
        const r = await burst(bases, k.secret, 3 * LIMIT, concurrency);
        const admitted = k.used + r.ok;
        t.diagnostic(`limit ${LIMIT}, 3 instances, ${concurrency} concurrent: ${admitted} admitted, ${r.limited} answered 429, in ${Date.now() - started} ms`);
        assert.deepEqual(r.other, [], 'only 200 and 429');
        assert.ok(admitted >= LIMIT * 0.9 && admitted <= LIMIT * 1.1, `${admitted} admitted for a limit of ${LIMIT}`);
        assert.ok(r.wellFormed429, 'every 429 carries Retry-After, RateLimit-Remaining: 0 and the rate-limited problem');
        // The shared row holds every admitted request (under the credential's id, not its secret).
        await sleep(500);
        assert.ok((await storedCount(k.id)) >= admitted);
        const { rows } = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_windows WHERE credential = $1', [k.secret]);
        assert.equal(rows[0]!.n, 0);
      });
    }

    it('keeps the figure per instance while the shared counts fail, then adds them once the database answers', async () => {
      const k = await freshKey();
      await h.services.db.query('ALTER TABLE rate_windows RENAME TO rate_windows_away');
      let r: Tally;
      try {
        r = await burst([bases[0]!], k.secret, LIMIT + 20, 4);
      } finally {
        await h.services.db.query('ALTER TABLE rate_windows_away RENAME TO rate_windows');
      }
      assert.deepEqual(r.other, [], 'no request failed for the database');
      assert.equal(k.used + r.ok, LIMIT, 'one instance alone still counts exactly');
      assert.ok(r.wellFormed429);
      // The sync retries every second; once the table is back, the instance's counts are shared.
      const until = Date.now() + 5_000;
      while ((await storedCount(k.id)) < LIMIT && Date.now() < until) await sleep(100);
      assert.equal(await storedCount(k.id), LIMIT);
      // Another instance may admit one request on what it knew (1 % of the figure), then learns the total.
      await check(bases[1]!, k.secret);
      assert.equal((await check(bases[1]!, k.secret)).status, 429, 'another instance sees the total');
    });
  },
);

describe('the rate limiter when its database fails', () => {
  /** An in-memory shared store whose answers can fail or never come. */
  function fakeStore() {
    const rows = new Map<string, number>();
    const s = {
      mode: 'ok' as 'ok' | 'fail' | 'hang',
      calls: 0,
      rows,
      store: {
        async add(deltas: readonly WindowDelta[]) {
          s.calls++;
          if (s.mode === 'fail') throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
          if (s.mode === 'hang') return new Promise<number[]>(() => undefined);
          return deltas.map((d) => {
            const key = `${d.credential}@${d.windowStart}`;
            rows.set(key, (rows.get(key) ?? 0) + d.delta);
            return rows.get(key)!;
          });
        },
        async purge() {
          if (s.mode !== 'ok') throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        },
      } satisfies RateWindowStore,
    };
    return s;
  }

  function logCollector() {
    const lines = { warn: [] as string[], info: [] as string[] };
    return { lines, log: { warn: (_o: object, m: string) => void lines.warn.push(m), info: (_o: object, m: string) => void lines.info.push(m) } };
  }

  const reply = () => ({
    headers: {} as Record<string, unknown>,
    header(n: string, v: unknown) {
      this.headers[n] = v;
    },
  });

  async function hits(limiter: RateLimiter, id: string, limit: number, n: number): Promise<{ ok: number; limited: number; other: unknown[] }> {
    const out = { ok: 0, limited: 0, other: [] as unknown[] };
    const results = await Promise.allSettled(Array.from({ length: n }, () => Promise.resolve().then(() => limiter.hit(reply(), id, limit))));
    for (const r of results) {
      if (r.status === 'fulfilled') out.ok++;
      else if ((r.reason as { status?: number }).status === 429) out.limited++;
      else out.other.push(r.reason);
    }
    return out;
  }

  it('answers every request from local counts, warns once per failure streak and shares the counts after', async () => {
    const s = fakeStore();
    const { lines, log } = logCollector();
    const limiter = new RateLimiter({ store: s.store, log, syncMs: 5, retryMs: 5 });
    try {
      s.mode = 'fail';
      const r = await hits(limiter, 'key:a', 20, 30);
      assert.deepEqual(r, { ok: 20, limited: 10, other: [] });
      await sleep(50); // several failed syncs
      assert.ok(s.calls > 2);
      assert.equal(lines.warn.length, 1, 'one warning for the streak');
      assert.ok(limiter.degraded);

      s.mode = 'ok';
      await sleep(50);
      assert.equal(limiter.degraded, false);
      assert.equal(lines.info.length, 1);
      assert.deepEqual([...s.rows.values()], [20], 'the requests counted alone are added once the database answers');

      s.mode = 'fail';
      assert.deepEqual(await hits(limiter, 'key:b', 20, 5), { ok: 5, limited: 0, other: [] });
      await sleep(30);
      assert.equal(lines.warn.length, 2, 'a new streak warns again');
    } finally {
      s.mode = 'ok';
      await limiter.close();
    }
  });

  it('decides a request waiting on a database that does not answer within its bound', async () => {
    const s = fakeStore();
    const { lines, log } = logCollector();
    const limiter = new RateLimiter({ store: s.store, log, syncMs: 5, retryMs: 5, waitMs: 50 });
    s.mode = 'hang';
    const started = Date.now();
    // The second request is counted in the database (this instance already holds 1 % of 5).
    // (The bound's timer does not hold the process: a sleep holds the test's event loop.)
    const [r] = await Promise.all([hits(limiter, 'key:c', 5, 8), sleep(100)]);
    assert.deepEqual(r, { ok: 5, limited: 3, other: [] });
    assert.ok(Date.now() - started < 1_000);
    assert.equal(lines.warn.length, 1);
    s.mode = 'ok';
    await Promise.all([limiter.close(), sleep(200)]); // a sync may still wait out its bound
  });
});
