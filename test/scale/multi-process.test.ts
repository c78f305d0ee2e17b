// The README's scale-out deployment, as processes: one API instance with CRUCIBLE_WORKERS=0 and
// its own data directory, two `crucible worker` processes each with another data directory (as
// on other machines), one PostgreSQL, artifacts in PostgreSQL or in S3 (a stand-in). Uploads
// made through the API are read by jobs on the workers; every result downloads through the API;
// nothing is lost or charged twice; no process writes artifacts to its own disk.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openPostgres } from '../../src/db/postgres.js';
import { walletStore } from '../../src/modules/wallet/store.js';
import { BACKENDS } from '../helpers/backends.js';
import { spawnCrucible } from '../helpers/processes.js';
import { s3Env, startS3StandIn, type S3StandIn } from '../helpers/s3-stand-in.js';

const pgBackend = BACKENDS.find((b) => b.name === 'postgres');
const ADMIN = { email: 'admin@crucible.local', password: 'admin-password-1' };
const children: ChildProcess[] = [];

after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function crucible(args: string[], env: Record<string, string>) {
  return spawnCrucible(args, env, children);
}

async function stop(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  await exited;
}

/** Files under a directory (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

const SMILES = ['CCO', 'c1ccccc1', 'CC(=O)Oc1ccccc1C(=O)O', 'CCN(CC)CC', 'O=C(O)c1ccccc1', 'C1CCCCC1', 'CC(C)Cc1ccc(C(C)C(=O)O)cc1', 'c1ccc2ccccc2c1', 'CCOC(=O)C', 'NCCO'];

for (const storage of ['postgres', 's3'] as const) {
  describe(
    `scale-out: API without workers, two workers on other data directories, ${storage} storage`,
    { skip: pgBackend ? false : 'needs PostgreSQL (several processes share one database)' },
    () => {
      it('uploads are read by jobs on the workers; every result downloads through the API; nothing lost or charged twice', async () => {
        const created = await pgBackend!.create();
        const dirs = ['api', 'w1', 'w2'].map((n) => fs.mkdtempSync(path.join(os.tmpdir(), `crucible-scale-${n}-`)));
        let s3: S3StandIn | null = null;
        try {
          s3 = storage === 's3' ? await startS3StandIn() : null;
          const common: Record<string, string> = { DATABASE_URL: created.url!, CRUCIBLE_STORAGE: storage, ...(s3 ? s3Env(s3) : {}) };
          const api = crucible(['serve'], { ...common, CRUCIBLE_DATA_DIR: dirs[0]!, PORT: '0', HOST: '127.0.0.1', CRUCIBLE_WORKERS: '0', CRUCIBLE_ADMIN_PASSWORD: ADMIN.password });
          await api.ready;
          const workers = [1, 2].map((i) => crucible(['worker'], { ...common, CRUCIBLE_DATA_DIR: dirs[i]!, CRUCIBLE_WORKERS: '2' }));
          await Promise.all(workers.map((w) => w.ready));
          const base = /listening on (http:\/\/\S+)/.exec(api.output())![1]!;

          const login = await fetch(`${base}/api/v1/auth/login-email`, { method: 'POST', body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }) });
          assert.equal(login.status, 200, await login.clone().text());
          const token = ((await login.json()) as { access_token: string }).access_token;
          const auth = { authorization: `Bearer ${token}` };
          const call = async (method: string, url: string, body?: unknown) => {
            const r = await fetch(`${base}/api/v1${url}`, {
              method,
              headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
              body: body ? JSON.stringify(body) : undefined,
            });
            return { status: r.status, body: (await r.json()) as any };
          };
          const walletBefore = (await call('GET', '/wallet')).body;

          const form = new FormData();
          form.append('mode', 'molecules');
          form.append('file', new Blob([SMILES.map((s, i) => `${s} m${i}`).join('\n') + '\n']), 'library.smi');
          const up = await fetch(`${base}/api/v1/artifacts`, { method: 'POST', headers: auth, body: form });
          const upload = (await up.json()) as { id: string; storage_key?: string };
          assert.equal(up.status, 201, JSON.stringify(upload));

          const jobs: { id: string; type: string }[] = [];
          for (let i = 0; i < 8; i++) {
            const type = i % 2 ? 'properties' : 'cluster';
            const r = await call('POST', '/jobs/submit', { job_name: `scale-${i}`, job_type: type, payload: { input_artifact_id: upload.id } });
            assert.equal(r.status, 200, JSON.stringify(r.body));
            jobs.push({ id: r.body.process_id, type });
          }
          const until = Date.now() + 120_000;
          for (const j of jobs) {
            for (;;) {
              const s = await call('GET', `/jobs/status?process_id=${j.id}`);
              if (['completed', 'error', 'cancelled'].includes(s.body.status)) {
                assert.equal(s.body.status, 'completed', JSON.stringify(s.body));
                break;
              }
              assert.ok(Date.now() < until, `job ${j.id} still ${s.body.status}`);
              await new Promise((r) => setTimeout(r, 200));
            }
          }
          for (const j of jobs) {
            const r = await call('GET', `/jobs/result?process_id=${j.id}`);
            assert.equal(r.status, 200, JSON.stringify(r.body));
            assert.equal(r.body.job_type, j.type);
            assert.equal(r.body.input.molecules, SMILES.length, 'the job read the uploaded molecules');
            const artifactId = (await call('GET', `/jobs/status?process_id=${j.id}`)).body.result_artifact_id;
            assert.ok(artifactId, 'the job has a result artifact');
            const dl = await fetch(`${base}/api/v1/artifacts/${artifactId}/download`, { headers: auth });
            assert.equal(dl.status, 200);
            const bytes = Buffer.from(await dl.arrayBuffer());
            assert.equal(bytes.subarray(0, 2).toString(), 'PK', 'a zip archive');
            assert.equal(String(bytes.length), dl.headers.get('content-length'));
          }

          const db = await openPostgres(created.url!);
          try {
            const { rows: ran } = await db.query<{ worker_id: string }>('SELECT DISTINCT worker_id FROM jobs WHERE worker_id IS NOT NULL');
            assert.ok(ran.length >= 1, 'the workers ran the jobs');
            const { rows: charges } = await db.query<{ job_id: string; n: number }>("SELECT job_id, count(*)::int AS n FROM ledger WHERE kind = 'charge' GROUP BY job_id");
            assert.equal(charges.length, jobs.length, 'one charge per job');
            for (const c of charges) assert.equal(c.n, 1, `job ${c.job_id} charged once`);
            const userId = (await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [ADMIN.email])).rows[0]!.id;
            const w = await walletStore.read(db, userId);
            const sums = await walletStore.ledgerTotals(db, userId);
            assert.equal(w.balance_micros, sums.balance);
            assert.equal(w.reserved_micros, 0);
            const { rows: keys } = await db.query<{ storage_key: string }>('SELECT storage_key FROM artifacts');
            assert.equal(keys.length, jobs.length + 1);
            for (const k of keys) assert.ok(k.storage_key.startsWith(`${storage}:`), `artifact in ${storage}: ${k.storage_key}`);
          } finally {
            await db.close();
          }
          const walletAfter = (await call('GET', '/wallet')).body;
          assert.ok(walletAfter.balance_usd < walletBefore.balance_usd, 'the jobs were charged');
          for (const d of dirs) assert.deepEqual(filesUnder(path.join(d, 'artifacts')), [], `no artifact on the disk of ${d}`);
          await Promise.all([api.child, ...workers.map((w) => w.child)].map(stop));
        } finally {
          for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
          await s3?.close();
          await created.drop();
          for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
        }
      });
    },
  );
}
