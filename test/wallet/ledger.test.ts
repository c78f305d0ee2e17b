// GET /wallet/ledger (docs/api-decisions.md, "The wallet's ledger"): every money move of the
// account, newest first, paged by `before`; the sums of a full read equal GET /wallet; each row
// names its job; another account's rows are never shown; a bad cursor is a 422 at its field.
// Run: node --import tsx --test test/wallet/ledger.test.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

interface Item {
  entry_id: string;
  kind: string;
  amount_usd: number;
  reserved_delta_usd: number;
  subject: string;
  subject_id: string | null;
  note: string | null;
  created_at: string;
}

for (const backend of BACKENDS) {
  describe(`GET /wallet/ledger [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(async () => h?.close());

    it('lists credits, holds, releases and charges newest first, paged; their sums are the wallet; other accounts never show', async () => {
      const u = await h.user();
      const other = await h.user();
      await h.credit(u.userId, 2);
      await h.credit(other.userId, 7);
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'w', job_type: 'wait', payload: { seconds: 1 } } });
      assert.equal(r.status, 200, r.text);
      const job = r.body.process_id as string;
      assert.equal((await h.waitForJob(u.token, job)).status, 'completed');

      // Pages of 2: all rows, each once, newest first.
      const all: Item[] = [];
      let before: string | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const q: string = `/api/v1/wallet/ledger?limit=2${before ? `&before=${before}` : ''}`;
        const page = await h.req('GET', q, { token: u.token });
        assert.equal(page.status, 200, page.text);
        all.push(...(page.body.items as Item[]));
        before = page.body.next_before as string | null;
        if (!before) break;
      }
      assert.deepEqual(
        all.map((i) => [i.kind, i.subject, i.subject_id]),
        [
          ['charge', 'jobs', job],
          ['release', 'jobs', job],
          ['reserve', 'jobs', job],
          ['credit', 'account', null],
        ],
      );
      const ids = all.map((i) => BigInt(i.entry_id));
      assert.ok(
        ids.every((id, n) => n === 0 || id < ids[n - 1]!),
        `newest first: ${ids.join(', ')}`,
      );
      assert.equal(all[3]!.amount_usd, 2);
      assert.equal(all[3]!.note, 'test credit');
      const hold = all[2]!.reserved_delta_usd;
      assert.ok(hold > 0 && all[1]!.reserved_delta_usd === -hold, `hold ${hold} released: ${all[1]!.reserved_delta_usd}`);
      const charge = all[0]!.amount_usd;
      assert.ok(charge < 0 && -charge <= hold, `charge ${charge} within the hold ${hold}`);
      const info = await h.req('GET', `/api/v1/jobs/info?process_id=${job}`, { token: u.token });
      assert.equal(-charge, info.body.info.charged_amount);
      const sum = (f: (i: Item) => number) => Math.round(all.reduce((t, i) => t + f(i), 0) * 1e6) / 1e6;
      const wallet = (await h.req('GET', '/api/v1/wallet', { token: u.token })).body;
      assert.equal(
        sum((i) => i.amount_usd),
        wallet.balance_usd,
      );
      assert.equal(
        sum((i) => i.reserved_delta_usd),
        wallet.reserved_usd,
      );
      assert.ok(all.every((i) => !Number.isNaN(Date.parse(i.created_at))));

      // The other account sees its own credit only.
      const theirs = (await h.req('GET', '/api/v1/wallet/ledger', { token: other.token })).body;
      assert.deepEqual(
        theirs.items.map((i: Item) => [i.kind, i.amount_usd]),
        [['credit', 7]],
      );
      assert.equal(theirs.next_before, null);
      // A cursor below every row: an empty page.
      const empty = (await h.req('GET', `/api/v1/wallet/ledger?before=${all[3]!.entry_id}`, { token: u.token })).body;
      assert.deepEqual(empty, { items: [], next_before: null });
    });

    it('a bad cursor or limit is a 422 at its field; an API key reads it too', async () => {
      const u = await h.user();
      for (const [q, field] of [
        ['before=abc', 'before'],
        ['before=99999999999999999999', 'before'],
        ['before=-1', 'before'],
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
      ] as const) {
        const r = await h.req('GET', `/api/v1/wallet/ledger?${q}`, { token: u.token });
        assert.equal(r.status, 422, `${q}: ${r.text}`);
        assert.deepEqual(r.body.errors[0].loc, ['query', field], q);
      }
      const key = await h.key(u.token, { name: 'reader', scopes: ['read'] });
      const r = await h.req('GET', '/api/v1/wallet/ledger', { key: key.secret });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, { items: [], next_before: null });
    });
  });
}
