// The drawings/descriptions cache (src/chem/cache.ts): LRU eviction, the entry and byte bounds,
// aliases (inputs as sent) pointing at canonical entries, and the switched-off cache.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChemCache } from '../../src/chem/cache.js';

const result = (svg: string) => ({ key: null, svg, error: null });

describe('chemistry cache', () => {
  it('holds at most `capacity` results and evicts the least recently used', () => {
    const c = new ChemCache(3);
    assert.equal(c.capacity, 3);
    for (const s of ['CCO', 'CCN', 'CCC']) c.set('depict', s, '300x220', s, result(`<svg>${s}</svg>`));
    assert.equal(c.stats().entries, 3);
    // Touch CCO: CCN is now the least recently used.
    assert.deepEqual(c.get('depict', 'CCO', '300x220'), result('<svg>CCO</svg>'));
    c.set('depict', 'CCCl', '300x220', 'CCCl', result('<svg>CCCl</svg>'));
    assert.equal(c.stats().entries, 3, 'bounded by capacity');
    assert.equal(c.get('depict', 'CCN', '300x220'), undefined, 'the least recently used went');
    for (const s of ['CCO', 'CCC', 'CCCl']) assert.ok(c.get('depict', s, '300x220'), s);
    // Many more inserts never pass the bound.
    for (let i = 0; i < 100; i++) c.set('describe', `C${'C'.repeat(i)}`, '', `C${'C'.repeat(i)}`, result(String(i)));
    assert.equal(c.stats().entries, 3);
    assert.ok(c.get('describe', `C${'C'.repeat(99)}`, ''));
    assert.equal(c.get('describe', 'C', ''), undefined);
  });

  it('serves every spelling from one entry, and an evicted entry is a miss for all of them', () => {
    const c = new ChemCache(2);
    const first = c.set('describe', 'OCC', '', 'CCO', { key: 'CCO', n: 1 });
    // Another spelling computed later gets the entry already cached.
    const second = c.set('describe', 'C(C)O', '', 'CCO', { key: 'CCO', n: 2 });
    assert.equal(second, first);
    assert.equal(c.stats().entries, 1);
    for (const s of ['OCC', 'C(C)O', 'CCO']) assert.equal(c.get('describe', s, ''), first, s);
    // Variants (sizes) are separate entries.
    assert.equal(c.get('describe', 'OCC', '400x220'), undefined);
    // Two other molecules push ethanol out; none of its spellings hits any more.
    c.set('describe', 'N', '', 'N', { key: 'N' });
    c.set('describe', 'O', '', 'O', { key: 'O' });
    const misses = c.stats().misses;
    for (const s of ['OCC', 'C(C)O', 'CCO']) assert.equal(c.get('describe', s, ''), undefined, s);
    assert.equal(c.stats().misses - misses, 3);
    assert.equal(c.stats().entries, 2);
  });

  it('bounds the results by approximate size too', () => {
    // Each result: 2 bytes per character + 64; 3 results of 1,000 characters fit in 7 KB, 4 do not.
    const c = new ChemCache(100, 7_000);
    for (let i = 0; i < 4; i++) c.set('depict', `C${i}`, '', `C${i}`, result(String(i).repeat(1_000)));
    assert.equal(c.stats().entries, 3);
    assert.equal(c.get('depict', 'C0', ''), undefined, 'the oldest went for the size');
    assert.ok(c.get('depict', 'C3', ''));
    // A result larger than the whole bound is not kept.
    c.set('depict', 'huge', '', 'huge', result('x'.repeat(10_000)));
    assert.equal(c.get('depict', 'huge', ''), undefined);
  });

  it('is off with capacity 0', () => {
    const c = new ChemCache(0);
    assert.equal(c.enabled, false);
    const v = result('<svg/>');
    assert.equal(c.set('depict', 'CCO', '', 'CCO', v), v);
    assert.equal(c.get('depict', 'CCO', ''), undefined);
    assert.deepEqual(c.stats(), { enabled: false, entries: 0, hits: 0, misses: 0 });
  });

  it('clear() empties it', () => {
    const c = new ChemCache(5);
    c.set('depict', 'CCO', '', 'CCO', result('a'));
    c.clear();
    assert.equal(c.stats().entries, 0);
    assert.equal(c.get('depict', 'CCO', ''), undefined);
  });
});
