// The sync chemistry path's savings (docs/performance.md, "Utilities"), each checked against what
// it replaced: response serialization (nullable primitives as type lists) writes the same bytes;
// the allowance count of calls without an Idempotency-Key shares statements and stays exact; a
// verified access token is answered from the cache and still expires; a request that finds every
// chemistry thread busy goes as one task; on-bit lists and atom counts as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import fastJsonStringify from 'fast-json-stringify';
import { SHARED_SCHEMAS } from '../../src/api/schemas.js';
import { ChemPool } from '../../src/chem/pool.js';
import { countAtomTokens } from '../../src/chem/limits.js';
import { onBits } from '../../src/chem/utilities/run.js';
import type { Queryable } from '../../src/db/database.js';
import { serializationSchema, sharedSerializerCompiler } from '../../src/http/serializers.js';
import { Authenticator } from '../../src/modules/auth/authenticator.js';
import { TokenSigner } from '../../src/modules/auth/tokens.js';
import { MODULES } from '../../src/modules/index.js';
import { CallCounter } from '../../src/modules/usage/counter.js';
import { Nullable } from '../../src/api/schemas.js';

const SCHEMAS = [...SHARED_SCHEMAS, ...MODULES.flatMap((m) => m.schemas ?? [])];

describe('response serialization', () => {
  it('writes nullable primitives as type lists, leaves dates and objects alone, and copies', () => {
    const s = Type.Object({
      a: Nullable(Type.String()),
      b: Nullable(Type.Union([Type.Literal('x'), Type.Literal('y')])),
      c: Nullable(Type.Integer()),
      d: Nullable(Type.String({ format: 'date-time' })),
      e: Nullable(Type.Object({ z: Type.String() })),
    });
    const out = serializationSchema(s) as unknown as { properties: Record<string, { type?: unknown; anyOf?: unknown }> };
    assert.deepEqual(out.properties.a!.type, ['string', 'null']);
    assert.deepEqual(out.properties.b!.type, ['string', 'null']);
    assert.deepEqual(out.properties.c!.type, ['integer', 'null']);
    assert.ok(out.properties.d!.anyOf, 'a nullable date-time stays an anyOf');
    assert.ok(out.properties.e!.anyOf, 'a nullable object stays an anyOf');
    assert.ok((s.properties.a as { anyOf?: unknown }).anyOf, 'the declared schema is unchanged');
  });

  it('writes the same bytes as the declared schemas for utility results and drawings', () => {
    const external = Object.fromEntries(SCHEMAS.map((s) => [s.$id!, s])) as never;
    const declared = (id: string) => fastJsonStringify({ $ref: id } as never, { schema: external });
    const compiled = sharedSerializerCompiler(SCHEMAS, false);
    const ours = (id: string) => compiled({ schema: { $ref: id } });
    const item = (i: number) =>
      i % 3 === 0
        ? { index: i, smiles: null, inchi: null, error: 'unparseable', detail: 'unclosed ring "1" \u00e9\n' }
        : { index: i, id: `r${i}`, name: i % 2 ? null : 'aspirin', smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchi: 'InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3', error: null, detail: null };
    const answers = [
      {
        tool: 'convert',
        result: { outputs: ['inchi', 'smiles'], items: Array.from({ length: 7 }, (_, i) => item(i)), counts: { molecules: 7, ok: 4, failed: 3 } },
        result_artifact_id: null,
        counted: 1,
      },
      {
        tool: 'fingerprints',
        result: {
          fingerprint: { type: 'morgan', radius: 2, n_bits: 2048 },
          format: 'bits',
          items: [
            { index: 0, fingerprint: [1, 80, 2047], on_bits: 3, error: null, detail: null },
            { index: 1, fingerprint: null, on_bits: null, error: 'too_large', detail: '250 heavy atoms; at most 200' },
            { index: 2, fingerprint: 'ff00', on_bits: 8, error: null, detail: null },
          ],
          counts: { molecules: 3, ok: 2, failed: 1 },
        },
        result_artifact_id: null,
        counted: 1,
      },
      { tool: 'convert', result: null, result_artifact_id: 'art_1', counted: 1 },
    ];
    for (const a of answers) assert.equal(ours('UtilityRunResponse')(a), declared('UtilityRunResponse')(a));
    const drawings = {
      items: [
        { svg: '<svg width="300"><text>N</text></svg>', error: null, detail: null },
        { svg: null, error: 'unparseable', detail: 'extra open parentheses' },
      ],
    };
    assert.equal(ours('DepictResponse')(drawings), declared('DepictResponse')(drawings));
  });
});

describe('on-bit lists and atom counts', () => {
  it('onBits lists the set bits of a packed vector in order, within n_bits', () => {
    const naive = (fp: Uint8Array, n: number) => Array.from({ length: n }, (_, i) => i).filter((i) => ((fp[i >> 3] ?? 0) >> (i & 7)) & 1);
    for (let k = 0; k < 200; k++) {
      const fp = Uint8Array.from({ length: 32 }, () => (Math.random() < 0.5 ? 0 : Math.floor(Math.random() * 256)));
      for (const n of [256, 250, 167]) assert.deepEqual(onBits(fp, n), naive(fp, n));
    }
  });

  it('countAtomTokens counts as the regular expressions did', () => {
    const regex = (s: string) => (s.replace(/\[[^\]]*\]/g, 'X').match(/Cl|Br|[BCNOSPFIXbcnosp*]/g) ?? []).length;
    const alphabet = '[]CcNnOoSsBrlPFIX*()=#123@H+-.aq';
    for (let k = 0; k < 5000; k++) {
      const s = Array.from({ length: Math.floor(Math.random() * 30) }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
      assert.equal(countAtomTokens(s), regex(s), JSON.stringify(s));
    }
    for (const s of ['CC(=O)Oc1ccccc1C(=O)O', '[Na+].[Cl-]', 'C[C@H](N)C(=O)O', '[C[N]CBr', 'ClCBr*']) assert.equal(countAtomTokens(s), regex(s), s);
  });
});

/** A usage_months row in memory behind usageStore.add's statement, counting statements (each takes a few ms). */
function fakeMonthTable() {
  const row = { utilities: 0, inference: 0 };
  let statements = 0;
  const db = {
    async query(_sql: string, params: unknown[]) {
      statements++;
      await new Promise((r) => setTimeout(r, 3));
      const [, , units, allowance] = params as [string, string, number, number | null];
      if (allowance !== null && row.utilities + row.inference + units > allowance) return { rows: [], rowCount: 0 };
      row.utilities += units;
      return { rows: [{ ...row }], rowCount: 1 };
    },
    async exec() {},
  } as unknown as Queryable;
  return { db, row, statements: () => statements };
}

describe('counting calls without a transaction (CallCounter)', () => {
  it('concurrent calls of one account share statements and are all counted', async () => {
    const t = fakeMonthTable();
    const counter = new CallCounter(t.db);
    const res = await Promise.all(Array.from({ length: 12 }, () => counter.add('u1', '2026-11-01', 'utilities', 1, null)));
    assert.equal(t.row.utilities, 12);
    assert.ok(res.every((r) => r !== null));
    assert.ok(t.statements() < 12, `${t.statements()} statements for 12 calls`);
    assert.deepEqual(counter.stats().calls, 12);
  });

  it('never counts past the allowance: calls that do not all fit are decided one by one', async () => {
    const t = fakeMonthTable();
    const counter = new CallCounter(t.db);
    const res = await Promise.all(Array.from({ length: 9 }, () => counter.add('u1', '2026-11-01', 'utilities', 1, 5)));
    assert.equal(res.filter((r) => r !== null).length, 5);
    assert.equal(res.filter((r) => r === null).length, 4);
    assert.equal(t.row.utilities, 5);
  });
});

describe('access tokens seen before (Authenticator)', () => {
  it('answers a verified token from the cache synchronously, and still refuses it once expired', async () => {
    const session = { revoked_at: null, email: 'a@b.c', tier: 1 };
    const db = { query: async () => ({ rows: [session], rowCount: 1 }) } as unknown as ConstructorParameters<typeof Authenticator>[0];
    const signer = new TokenSigner('a test secret of some length for HS256', 2);
    const auth = new Authenticator(db, signer);
    const { token } = await signer.sign('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002');
    const first = auth.authenticate(undefined, `Bearer ${token}`);
    assert.ok(first instanceof Promise, 'the first use verifies the signature');
    assert.equal((await first)?.userId, '00000000-0000-4000-8000-000000000001');
    const again = auth.authenticate(undefined, `Bearer ${token}`);
    assert.ok(!(again instanceof Promise), 'a token seen before is answered at once');
    assert.equal(again?.sessionId, '00000000-0000-4000-8000-000000000002');
    auth.invalidate();
    assert.ok(auth.authenticate(undefined, `Bearer ${token}`) instanceof Promise, 'invalidate() forgets verified tokens too');
    await new Promise((r) => setTimeout(r, 2_100));
    assert.throws(
      () => auth.authenticate(undefined, `Bearer ${token}`),
      (e: { code?: string }) => e.code === 'token-expired',
    );
  });
});

describe('chemistry pool: a request that finds every thread busy', () => {
  let pool: ChemPool;
  before(async () => {
    pool = new ChemPool({ threads: 2, warmup: false });
    await pool.start();
    await pool.runItems('describe', ['CCO', 'CCN', 'CCC', 'CCCl'], { key: false }); // each thread loaded and prepared
  });
  after(async () => pool?.close());

  it('goes as one task (alone, it is split over the threads)', async () => {
    const drugs = ['CC(=O)Oc1ccccc1C(=O)O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'CC(C)Cc1ccc(cc1)[C@@H](C)C(=O)O', 'COc1ccc2[nH]cc(CCNC(C)=O)c2c1'];
    const batch = Array.from({ length: 20 }, (_, i) => `${drugs[i % drugs.length]!}.${'C'.repeat(1 + (i % 7))}`);
    const t0 = pool.stats().tasks;
    const alone = pool.runItems('describe', batch, { key: false });
    while (pool.stats().tasks < t0 + 2) await new Promise((r) => setImmediate(r));
    const busy = pool.runItems('describe', batch.slice(0, 19), { key: false });
    const [a, b] = await Promise.all([alone, busy]);
    assert.ok(a.every((o) => o.ok) && b.every((o) => o.ok));
    assert.equal(pool.stats().tasks - t0, 3, 'two tasks for the first request, one for the second');
  });
});
