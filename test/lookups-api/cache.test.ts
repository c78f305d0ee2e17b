// The response cache lives in the database (table lookup_cache, migration 005): a repeat costs
// no upstream call, on the same instance, on a second instance sharing the PostgreSQL database,
// and after a restart (PGlite in a data dir, and PostgreSQL). Rows hold no query text, live
// 24 h, expired rows are not served and are purged.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { DbLookupCache } from '../../src/modules/lookups/cache.js';
import { BACKENDS } from '../helpers/backends.js';
import type { Harness } from '../helpers/harness.js';
import { cacheRows, callers, lookup, secondInstance, StandIn, standInEnv, startInstance, withHarness, type Callers } from './setup.js';

const TWENTY = ['aspirin', 'glucose', ...Array.from({ length: 18 }, (_, i) => `unknown compound ${i}`)];

for (const backend of BACKENDS) {
  describe(`lookup cache in the database (${backend.name})`, () => {
    let standIn: StandIn;
    let h: Harness;
    let who: Callers;
    before(async () => {
      standIn = await new StandIn().start();
      h = await withHarness(backend, standIn);
      who = await callers(h);
    });
    after(async () => {
      await h?.close();
      await standIn?.stop();
    });
    beforeEach(async () => {
      standIn.reset();
      await h.services.db.query('DELETE FROM lookup_cache');
    });

    it('a repeat is answered from the table: zero upstream calls, the same answer; rows hold no query text and live 24 h', async () => {
      const body = { operation: 'entry', queries: ['P00533', 'Q99999'] };
      const first = await lookup(h, 'proteins', body, { key: who.key });
      assert.equal(first.status, 200);
      assert.equal(standIn.requests.length, 2);
      const rows = await cacheRows(h);
      assert.equal(rows.length, 2, 'found and not_found are both cached');
      for (const r of rows) {
        assert.match(r.key, /^lookup:v1:[0-9a-f]{64}$/);
        assert.equal(r.ttl_hours, 24);
      }
      assert.deepEqual(rows.map((r) => r.value.status).sort(), ['found', 'not_found']);
      assert.ok(!JSON.stringify(rows.map((r) => r.key)).includes('P00533'));
      const second = await lookup(h, 'proteins', body, { token: who.token });
      assert.equal(standIn.requests.length, 2, 'zero upstream calls for the repeat');
      assert.deepEqual(second.body, first.body);
    });

    it('the table is the cache: with its rows gone the next request goes upstream again', async () => {
      const body = { names: TWENTY };
      await lookup(h, 'compounds', body, { key: who.key });
      assert.equal(standIn.requests.length, 20);
      assert.equal((await cacheRows(h)).length, 20);
      standIn.reset();
      const warm = await lookup(h, 'compounds', body, { key: who.key });
      assert.equal(standIn.requests.length, 0);
      assert.equal(warm.body.compounds[0].cid, 2244);
      await h.services.db.query('DELETE FROM lookup_cache');
      await lookup(h, 'compounds', body, { key: who.key });
      assert.equal(standIn.requests.length, 20);
    });

    it('different parameters are different entries', async () => {
      await lookup(h, 'targets', { operation: 'target_drugs', queries: ['ENSG00000146648'], limit: 2 }, { key: who.key });
      await lookup(h, 'targets', { operation: 'target_drugs', queries: ['ENSG00000146648'], limit: 3 }, { key: who.key });
      await lookup(h, 'targets', { operation: 'target_drugs', queries: ['ENSG00000146648'], limit: 3 }, { key: who.key });
      assert.equal(standIn.requests.length, 2);
      assert.equal((await cacheRows(h)).length, 2);
    });

    it('an expired row is not served; the purge deletes expired rows only', async () => {
      await lookup(h, 'structures', { operation: 'entry', queries: ['4HHB'] }, { key: who.key });
      await lookup(h, 'proteins', { operation: 'entry', queries: ['P00533'] }, { key: who.key });
      assert.equal(standIn.requests.length, 2);
      await h.services.db.query(`UPDATE lookup_cache SET expires_at = now() - interval '1 second' WHERE value->>'record_id' = '4HHB'`);
      const r = await lookup(h, 'structures', { operation: 'entry', queries: ['4HHB'] }, { key: who.key });
      assert.equal(r.body.results[0].status, 'found');
      assert.equal(standIn.requests.length, 3, 'the expired entry was fetched again');
      // Refreshed: the row is live again, for 24 h.
      assert.ok((await cacheRows(h)).every((row) => row.ttl_hours === 24));
      await h.services.db.query(`UPDATE lookup_cache SET expires_at = now() - interval '1 second' WHERE value->>'record_id' = 'P00533'`);
      const purged = await new DbLookupCache(h.services.db, { purgeBatch: 1 }).purgeExpired();
      assert.equal(purged, 1);
      const left = await cacheRows(h);
      assert.deepEqual(
        left.map((row) => row.value.record_id),
        ['4HHB'],
      );
    });

    it('set() starts a background purge at most once per interval', async () => {
      const cache = new DbLookupCache(h.services.db, { purgeIntervalMs: 1 });
      const key = (n: number) => `lookup:v1:${String(n).padStart(64, '0')}`;
      await cache.set(key(1), { status: 'found' }, 60_000);
      await h.services.db.query(`UPDATE lookup_cache SET expires_at = now() - interval '1 second' WHERE key = $1`, [key(1)]);
      await new Promise((r) => setTimeout(r, 5));
      await cache.set(key(2), { status: 'not_found' }, 60_000);
      for (let i = 0; i < 50 && (await cacheRows(h)).length > 1; i++) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(
        (await cacheRows(h)).map((r) => r.key),
        [key(2)],
      );
      assert.equal(await cache.get(key(1)), undefined);
      assert.deepEqual(await cache.get(key(2)), { status: 'not_found' });
    });

    if (backend.name === 'postgres') {
      it('a second instance on the same PostgreSQL database answers a repeat with zero upstream calls; so does one started after a restart', async () => {
        const body = { operation: 'target_associations', queries: ['EGFR', 'EFO_9999999'] };
        const first = await lookup(h, 'targets', body, { key: who.key });
        const calls = standIn.requests.length;
        assert.ok(calls >= 2);
        const b = await secondInstance(h.dbUrl!, h.config);
        try {
          const r = await lookup(b, 'targets', body, { key: who.key });
          assert.equal(r.status, 200);
          assert.deepEqual(r.body, first.body);
          assert.equal(standIn.requests.length, calls, 'instance B made no upstream call');
          // B fills the cache with something new; A reads it.
          await lookup(b, 'structures', { operation: 'search', queries: ['hemoglobin'] }, { key: who.key });
          const afterB = standIn.requests.length;
          assert.ok(afterB > calls);
          await lookup(h, 'structures', { operation: 'search', queries: ['hemoglobin'] }, { key: who.key });
          assert.equal(standIn.requests.length, afterB, 'instance A made no upstream call');
        } finally {
          await b.close();
        }
        // A restart: a fresh instance (new process state, empty memory) on the same database.
        const c = await secondInstance(h.dbUrl!, h.config);
        try {
          const before = standIn.requests.length;
          await lookup(c, 'targets', body, { key: who.key });
          await lookup(c, 'structures', { operation: 'search', queries: ['hemoglobin'] }, { key: who.key });
          assert.equal(standIn.requests.length, before);
        } finally {
          await c.close();
        }
      });
    }
  });
}

describe('lookup cache across a restart of the embedded database (PGlite in a data dir)', () => {
  let standIn: StandIn;
  let dataDir: string;
  before(async () => {
    standIn = await new StandIn().start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-lookups-'));
  });
  after(async () => {
    await standIn?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the cache survives a restart: the repeat costs no upstream call', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', CRUCIBLE_DATA_DIR: dataDir, ...standInEnv(standIn) });
    const body = { names: ['aspirin', 'glucose', 'unobtainium'] };
    const a = await startInstance(config);
    let token: string;
    let first: any;
    try {
      await a.services.users.create('restart@example.com', 'correct horse battery staple', 'pro');
      const login = await a.req('POST', '/api/v1/auth/login-email', { form: { username: 'restart@example.com', password: 'correct horse battery staple' } });
      token = login.body.access_token;
      first = await lookup(a, 'compounds', body, { token });
      assert.equal(first.status, 200);
      assert.equal(standIn.requests.length, 3);
    } finally {
      await a.close();
    }
    const b = await startInstance(config);
    try {
      const again = await lookup(b, 'compounds', body, { token });
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(standIn.requests.length, 3, 'no upstream call after the restart');
    } finally {
      await b.close();
    }
  });
});
