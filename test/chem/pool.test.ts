// The chemistry worker pool: real RDKit in worker threads, per-item isolation of hangs,
// crashes and WASM aborts, the bounded cost of bad inputs (failure memory, retry budget,
// stand-in threads), batching, ordering, the cache, and closing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChemPool, type ItemOutcome } from '../../src/chem/pool.js';
import { assertSafeSvg } from './svg-check.js';

const HANG = 'C1CC1 hang';
const HANG2 = 'C1CC1 hang again';
const CRASH = 'C1CC1 crash';
const ABORT = 'C1CC1 abort';
// Failures of the failure-memory tests' own (no other test sends these).
const HANG_TWICE = 'C1CC1 hang until remembered';
const CRASH_ONCE = 'C1CC1 crash until remembered';
/** The suffix of a failure answered from the failure memory. */
const remembered = / \(this input failed the same way recently; not run again\)$/;
const size = { width: 300, height: 220, key: true };

/** The value of an outcome, asserting it is a success. */
function valueOf<T>(r: ItemOutcome<T> | undefined): T {
  assert.ok(r, 'an outcome');
  if (!r.ok) assert.fail(`expected a value, got ${r.failure}: ${r.message}`);
  return r.value;
}

/** The failure and message of an outcome, asserting it is a failure. */
function failureOf<T>(r: ItemOutcome<T> | undefined): Extract<ItemOutcome<T>, { ok: false }> {
  assert.ok(r, 'an outcome');
  if (r.ok) assert.fail('expected a failure, got a value');
  return r;
}

describe('chemistry pool', () => {
  let pool: ChemPool;
  before(async () => {
    pool = new ChemPool({ threads: 2, itemTimeoutMs: 2_000, cacheEntries: 100, faults: { hang: [HANG, HANG2, HANG_TWICE], crash: [CRASH, CRASH_ONCE], abort: [ABORT] } });
    await pool.start();
  });
  after(async () => pool?.close());

  it('draws molecules in input order, each with its own result', async () => {
    const inputs = ['CCO', 'c1ccccc1', 'not a smiles', 'CC(=O)Oc1ccccc1C(=O)O', '', 'C'.repeat(2001), 'OCC'];
    const r = await pool.runItems('depict', inputs, size);
    assert.equal(r.length, inputs.length);
    const v = r.map((x) => (x.ok ? x.value : null));
    assert.ok(v.every((x) => x !== null));
    assert.deepEqual(
      v.map((x) => x.error),
      [null, null, 'unparseable', null, 'unparseable', 'too_large', null],
    );
    assert.deepEqual(
      v.map((x) => x.key),
      ['CCO', 'c1ccccc1', null, 'CC(=O)Oc1ccccc1C(=O)O', null, null, 'CCO'],
    );
    for (const x of v) if (x.svg) assertSafeSvg(x.svg, 300, 220);
    // Atom labels are SVG text: aspirin has four oxygens.
    const [, benzene, , aspirin] = v;
    assert.ok(benzene?.svg && aspirin?.svg);
    assert.equal((aspirin.svg.match(/<text [^>]*>O<\/text>/g) ?? []).length, 4);
    // Benzene has 6 ring bonds drawn, aspirin 13.
    assert.equal(new Set(benzene.svg.match(/bond-\d+/g)).size, 6);
    assert.equal(new Set(aspirin.svg.match(/bond-\d+/g)).size, 13);
  });

  it('a hung item costs only itself: its thread is replaced and its neighbours are drawn', async () => {
    const before = pool.stats();
    const t0 = Date.now();
    const r = await pool.runItems('depict', ['CCO', 'CCN', HANG, 'CCCl', 'c1ccncc1'], size);
    const ms = Date.now() - t0;
    assert.deepEqual(r[2], { ok: false, failure: 'timeout', message: 'item ran longer than 2000 ms' });
    for (const i of [0, 1, 3, 4]) {
      assert.ok(valueOf(r[i]).svg, `item ${i} drawn`);
    }
    assert.ok(ms >= 2_000 && ms < 20_000, `one timeout, not one per item (${ms} ms)`);
    const s = pool.stats();
    assert.equal(s.timeouts - before.timeouts, 1);
    // The pool keeps serving.
    const again = await pool.runItems('describe', ['CCO'], { key: false });
    assert.equal(valueOf(again[0]).properties?.formula, 'C2H6O');
  });

  it('the event loop stays free while a worker hangs', async () => {
    const pending = pool.run('depict', HANG2, size);
    const ticks: number[] = [];
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        ticks.push(Date.now());
        if (ticks.length === 10) {
          clearInterval(t);
          resolve();
        }
      }, 20);
    });
    // Ten 20 ms ticks in well under the hang's 2 s: RDKit is not on this thread.
    assert.ok(Date.now() - started < 1_500, `ticks took ${Date.now() - started} ms`);
    const r = await pending;
    assert.equal(r.ok, false);
  });

  it('a crashing item (the thread dies) fails alone, and so does a WASM abort', async () => {
    const before = pool.stats();
    const r = await pool.runItems('describe', ['CCO', CRASH, 'c1ccccc1O', ABORT, 'CC(=O)O', 'N'], { key: false });
    assert.equal(failureOf(r[1]).failure, 'crashed');
    assert.equal(failureOf(r[3]).failure, 'crashed');
    const formulas = r.map((x) => (x.ok ? x.value.properties?.formula : null));
    assert.deepEqual(formulas, ['C2H6O', null, 'C6H6O', null, 'C2H4O2', 'H3N']);
    assert.equal(pool.stats().crashes - before.crashes, 2);
  });

  it('remembers an input that crashed a thread, and answers it again without a worker', async () => {
    const before = pool.stats();
    const first = await pool.runItems('describe', [CRASH_ONCE, 'CCN'], { key: false });
    assert.equal(failureOf(first[0]).failure, 'crashed');
    assert.doesNotMatch(failureOf(first[0]).message, remembered);
    assert.equal(pool.stats().crashes - before.crashes, 1);

    const mid = pool.stats();
    const t0 = Date.now();
    const c = await pool.runItems('describe', [CRASH_ONCE, 'CCN'], { key: false });
    const ms = Date.now() - t0;
    assert.equal(failureOf(c[0]).failure, 'crashed');
    assert.match(failureOf(c[0]).message, remembered);
    assert.equal(valueOf(c[1]).properties?.formula, 'C2H7N');
    const s = pool.stats();
    assert.equal(s.crashes, mid.crashes, 'no thread crashed again');
    assert.equal(s.rememberedFailures - mid.rememberedFailures, 1);
    assert.equal(s.tasks - mid.tasks, 1, 'one task, for the good molecule only');
    assert.ok(ms < 1_500, `answered at once (${ms} ms)`);
    // The memory is per kind (and options): the same text as a depict item runs.
    const d = await pool.run('depict', CRASH_ONCE, size);
    assert.equal(!d.ok && d.failure, 'crashed');
    assert.equal(pool.stats().crashes - mid.crashes, 1);
  });

  it('remembers a timed-out input only after its second timeout (one slow run never locks out a valid input)', async () => {
    const before = pool.stats();
    // First timeout: reported, not remembered.
    const r1 = await pool.runItems('depict', ['CCO', HANG_TWICE], size);
    assert.ok(valueOf(r1[0]).svg);
    assert.deepEqual(r1[1], { ok: false, failure: 'timeout', message: 'item ran longer than 2000 ms' });
    assert.equal(pool.stats().timeouts - before.timeouts, 1);
    // The next call runs it again: it times out a second time, and is remembered from then on.
    const r2 = await pool.runItems('depict', ['CCO', HANG_TWICE], size);
    assert.deepEqual(r2[1], { ok: false, failure: 'timeout', message: 'item ran longer than 2000 ms' });
    assert.equal(pool.stats().timeouts - before.timeouts, 2, 'run again after one timeout');
    assert.equal(pool.stats().rememberedFailures, before.rememberedFailures);

    const mid = pool.stats();
    const t0 = Date.now();
    const r3 = await pool.runItems('depict', ['CCO', HANG_TWICE], size);
    const ms = Date.now() - t0;
    assert.ok(valueOf(r3[0]).svg);
    assert.equal(failureOf(r3[1]).failure, 'timeout');
    assert.match(failureOf(r3[1]).message, /^item ran longer than 2000 ms \(this input failed the same way recently; not run again\)$/);
    const s = pool.stats();
    assert.equal(s.timeouts, mid.timeouts, 'no thread hung a third time');
    assert.equal(s.rememberedFailures - mid.rememberedFailures, 1);
    assert.equal(s.tasks - mid.tasks, 1, 'one task, for the good molecule only');
    assert.ok(ms < 1_500, `answered at once (${ms} ms)`);
  });

  it('splits a request over the threads in a few batches', async () => {
    const before = pool.stats().tasks;
    const inputs = Array.from({ length: 20 }, (_, i) => `C${'C'.repeat(i)}O`);
    const r = await pool.runItems('describe', inputs, { key: false });
    assert.equal(pool.stats().tasks - before, 2, 'two threads: two tasks of ten');
    assert.deepEqual(
      r.map((x) => x.ok && x.value.properties?.heavy_atoms),
      inputs.map((_, i) => i + 2),
    );
    const one = pool.stats().tasks;
    await pool.runItems('describe', ['CCO', 'CCN', 'CCC'], { key: false });
    assert.equal(pool.stats().tasks - one, 1, 'a small request is one task');
  });

  it('serves repeated and re-spelled inputs from the cache', async () => {
    pool.cache.clear();
    const s0 = pool.cache.stats();
    const first = await pool.runCached('describe', ['OCC', 'OCC', 'c1ccccc1'], { key: false }, '');
    assert.ok(first.every((x) => x.ok));
    const tasks = pool.stats().tasks;
    const second = await pool.runCached('describe', ['c1ccccc1', 'OCC'], { key: false }, '');
    assert.equal(pool.stats().tasks, tasks, 'no worker task for cached inputs');
    assert.deepEqual(second[1], first[0]);
    const s1 = pool.cache.stats();
    assert.equal(s1.hits - s0.hits, 2);
    // A new spelling runs once, then shares the canonical entry.
    await pool.runCached('describe', ['C(C)O'], { key: false }, '');
    assert.equal(pool.cache.stats().entries, 2, 'ethanol and benzene: two entries for three spellings');
    // Size is part of a drawing's key.
    const a = await pool.runCached('depict', ['CCO'], { width: 300, height: 220, key: false }, '300x220');
    const b = await pool.runCached('depict', ['CCO'], { width: 400, height: 220, key: false }, '400x220');
    assert.match(valueOf(a[0]).svg ?? '', /width="300"/);
    assert.match(valueOf(b[0]).svg ?? '', /width="400"/);
  });
});

describe('chemistry pool: many hanging items', () => {
  // 8 s item timeout: stand-ins start once an item has run 1 s (and need a few seconds to load
  // RDKit on a busy machine, all before the first timeout); the retries of each batch get 4 s
  // of worker time (the budget is per batch; this request's two batches run in parallel).
  const TIMEOUT = 8_000;
  const HANGS = Array.from({ length: 12 }, (_, i) => `C1CC1 hang ${i}`);
  let pool: ChemPool;
  before(async () => {
    pool = new ChemPool({ threads: 2, itemTimeoutMs: TIMEOUT, faults: { hang: HANGS } });
    await pool.run('describe', 'C', { key: false }); // threads up and warm
  });
  after(async () => pool?.close());

  it('costs about one timeout plus the retry budget for a request of many hanging items, and serves other calls meanwhile', async () => {
    assert.equal(pool.stuckMs, 1_000);
    assert.equal(pool.retryBudgetMs, 4_000);
    const t0 = Date.now();
    // Two tasks of seven: [CCO, 6 hangs] and [6 hangs, CCN]: every thread hangs.
    const hanging = pool.runItems('describe', ['CCO', ...HANGS, 'CCN'], { key: false });
    let hangingDone = 0;
    void hanging.then(() => (hangingDone = Date.now()));
    await new Promise((r) => setTimeout(r, 200));
    // Another call while both threads hang: a stand-in thread serves it before any timeout.
    const t1 = Date.now();
    const other = await pool.runItems('describe', ['c1ccccc1O', 'CC(=O)O', 'N'], { key: false });
    const otherMs = Date.now() - t1;
    assert.deepEqual(
      other.map((x) => x.ok && x.value.properties?.formula),
      ['C6H6O', 'C2H4O2', 'H3N'],
    );
    assert.equal(pool.stats().timeouts, 0, `served while the hangs were in progress (${otherMs} ms)`);
    assert.equal(hangingDone, 0);

    const r = await hanging;
    const ms = Date.now() - t0;
    assert.equal(valueOf(r[0]).properties?.formula, 'C2H6O', 'the item before the hangs');
    const failures = r.slice(1).map((x) => !x.ok && x.failure);
    assert.deepEqual(failures, Array(13).fill('timeout'), 'hanging items, and CCN behind six of them, fail as timeouts');
    const s = pool.stats();
    assert.equal(s.timeouts, 2, 'two items timed out before the request was answered: one per thread');
    assert.equal(s.budgetFailures, 11, "the rest failed when their batch's retry budget ran out");
    // Both batches in parallel, each: one timeout, a thread start, its retry budget (about 13 s
    // unloaded, 17.5 s seen beside a full test run and three busy processes); not 6 timeouts
    // one after the other (48 s and more).
    assert.ok(ms < 2 * TIMEOUT + pool.retryBudgetMs, `answered in ${ms} ms`);
  });
});

describe('chemistry pool: limits, no cache, closing', () => {
  // Large molecules take seconds to draw on a busy machine: the default item timeout (10 s).
  let big: ChemPool;
  before(async () => {
    big = new ChemPool({ threads: 1 });
  });
  after(async () => big?.close());

  it('calls a molecule with more than 200 heavy atoms too_large, and 200 fine', async () => {
    // Explicit hydrogens (deuterium) and dummy atoms are not heavy atoms, but a graph of more
    // than 300 atoms is too large all the same.
    const deuterated = `C${'C([2H])([2H])'.repeat(40)}C`; // 42 heavy atoms + 80 D
    const perdeutero = 'C([2H])([2H])'.repeat(101); // 101 heavy atoms + 202 D
    const inputs = ['C'.repeat(200), 'C'.repeat(201), '*'.repeat(301), deuterated, perdeutero];
    const expected = [null, 'too_large', 'too_large', null, 'too_large'];
    const r = await big.runItems('depict', inputs, size);
    assert.deepEqual(
      r.map((x) => x.ok && x.value.error),
      expected,
    );
    const d = await big.runItems('describe', inputs, { key: false });
    assert.deepEqual(
      d.map((x) => x.ok && x.value.error),
      expected,
    );
  });

  it('computes every time with the cache off, and reports unavailable once closed', async () => {
    const pool = new ChemPool({ threads: 1, cacheEntries: 0, warmup: false });
    try {
      assert.equal(pool.cache.enabled, false);
      const a = await pool.runCached('depict', ['CCO'], { width: 300, height: 220, key: false }, '300x220');
      const b = await pool.runCached('depict', ['CCO'], { width: 300, height: 220, key: false }, '300x220');
      valueOf(b[0]); // drawn again
      assert.equal(valueOf(a[0]).key, null, 'no canonical key computed when nothing is cached');
      assert.equal(pool.stats().tasks, 2);
    } finally {
      await pool.close();
    }
    const r = await pool.run('depict', 'CCO', { width: 300, height: 220, key: false });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.failure, 'unavailable');
  });
});
