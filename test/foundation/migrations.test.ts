import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrate, listMigrations } from '../../src/db/migrate.js';
import { BACKENDS } from '../helpers/backends.js';

for (const backend of BACKENDS) {
  describe(`migrations [${backend.name}]`, () => {
    it('apply every version once, and a second run applies nothing', async () => {
      const { db, drop } = await backend.create();
      try {
        const first = await migrate(db);
        assert.deepEqual(
          first,
          listMigrations().map((m) => m.name),
        );
        assert.deepEqual(await migrate(db), []);
        const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        assert.deepEqual(
          rows.map((r) => r.version),
          listMigrations().map((m) => m.version),
        );
      } finally {
        await drop();
      }
    });

    it('keep the ledger append-only', async () => {
      const { db, drop } = await backend.create({ migrated: true });
      try {
        const { rows } = await db.query<{ id: string }>(`INSERT INTO users (email, password_hash) VALUES ('l@example.com', 'x') RETURNING id`);
        assert.ok(rows[0], 'the user is inserted');
        await db.query(`INSERT INTO ledger (user_id, kind, amount_micros) VALUES ($1, 'credit', 5)`, [rows[0].id]);
        await assert.rejects(db.query('UPDATE ledger SET amount_micros = 6'), /append-only/);
        await assert.rejects(db.query('DELETE FROM ledger'), /append-only/);
      } finally {
        await drop();
      }
    });
  });
}
