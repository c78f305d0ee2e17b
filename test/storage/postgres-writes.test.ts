// The database store's writes (src/storage/postgres.ts) against a recording stand-in for the
// database: two chunk INSERTs in flight while the source goes on, every chunk once with its seq,
// and a failed INSERT failing the write after the other one has settled.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { PostgresStorage } from '../../src/storage/postgres.js';
import { StorageError } from '../../src/storage/storage.js';

/** Answers the store's statements, each INSERT of a chunk after `delayMs`; records what ran at once. */
function recordingDb(delayMs: number, failSeq = -1) {
  const chunks = new Map<number, Buffer>();
  let running = 0;
  let maxRunning = 0;
  const statements: string[] = [];
  const db = {
    kind: 'postgres',
    async query(sql: string, params: unknown[] = []) {
      const s = sql.replace(/\s+/g, ' ').trim();
      if (s.includes('INSERT INTO storage_chunks')) {
        running++;
        maxRunning = Math.max(maxRunning, running);
        try {
          await new Promise((r) => setTimeout(r, delayMs));
          const seq = params[1] as number;
          if (seq === failSeq) throw Object.assign(new Error('disk full'), { code: '53100' });
          chunks.set(seq, Buffer.from(params[2] as string, 'base64'));
          return { rows: [{ seq }], rowCount: 1 };
        } finally {
          running--;
        }
      }
      statements.push(s.split(' ').slice(0, 3).join(' '));
      if (s.startsWith('UPDATE storage_objects SET complete')) assert.equal(running, 0, 'no INSERT runs when the object is completed');
      if (s.startsWith('DELETE')) assert.equal(running, 0, 'no INSERT runs when the object is removed');
      return { rows: [], rowCount: 1 };
    },
  } as unknown as Database;
  return { db, chunks, statements, maxRunning: () => maxRunning };
}

async function* pieces(buf: Buffer, size: number) {
  for (let off = 0; off < buf.length; off += size) yield buf.subarray(off, off + size);
}

describe('the database store writes two chunks at once', () => {
  it('keeps two INSERTs in flight and stores every chunk once, in its place', async () => {
    const rec = recordingDb(20);
    const store = new PostgresStorage(rec.db, { chunkBytes: 1000 });
    const data = crypto.randomBytes(10_500);
    const put = await store.put(Readable.from(pieces(data, 333), { objectMode: false }));
    assert.equal(put.size, data.length);
    assert.equal(put.sha256, crypto.createHash('sha256').update(data).digest('hex'));
    assert.equal(rec.maxRunning(), 2);
    assert.deepEqual(
      [...rec.chunks.keys()].sort((a, b) => a - b),
      Array.from({ length: 11 }, (_, i) => i),
    );
    assert.ok(Buffer.concat([...rec.chunks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b)).equals(data));
    assert.deepEqual(rec.statements, ['INSERT INTO storage_objects', 'UPDATE storage_objects SET']);
  });

  it('a failed INSERT fails the write (the store’s fault) and removes the object once nothing runs', async () => {
    const rec = recordingDb(10, 3);
    const store = new PostgresStorage(rec.db, { chunkBytes: 1000 });
    const err = await store.put(Readable.from(pieces(crypto.randomBytes(9000), 1000), { objectMode: false })).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof StorageError, String(err));
    assert.equal(err.code, 'ENOSPC');
    assert.deepEqual(rec.statements, ['INSERT INTO storage_objects', 'DELETE FROM storage_objects']);
  });
});
