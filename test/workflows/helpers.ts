// Shared by the workflow tests: starting runs, waiting for them, and the ledger of an account.
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/harness.js';
import { uploadArtifact } from '../helpers/uploads.js';

export const LIBRARY = [
  'CCO',
  'c1ccccc1O',
  'CC(=O)Oc1ccccc1C(=O)O',
  'CN1C=NC2=C1C(=O)N(C(=O)N2C)C',
  'CC(C)Cc1ccc(cc1)C(C)C(=O)O',
  'c1ccc2ccccc2c1',
  'OC(=O)c1ccccc1',
  'Cc1ccccc1',
  'CCN(CC)CC',
  'O=C(O)CCC(=O)O',
];

export async function startRun(h: Harness, token: string, body: unknown, status = 201): Promise<any> {
  const r = await h.req('POST', '/api/v1/workflows/runs', { token, body });
  assert.equal(r.status, status, r.text);
  return r.body;
}

/** Polls the run (through the database, sparing the API's rate limit) until it ends; returns GET /workflows/runs/{id}. */
export async function waitForRun(h: Harness, token: string, runId: string, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await h.services.db.query<{ status: string }>('SELECT status FROM workflow_runs WHERE id = $1', [runId]);
    if (rows[0] && rows[0].status !== 'running') break;
    if (Date.now() > until) throw new Error(`run ${runId} still ${rows[0]?.status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 25));
  }
  const r = await h.req('GET', `/api/v1/workflows/runs/${runId}`, { token });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/** Waits until a step's job is running. */
export async function waitForStep(h: Harness, runId: string, stepId: string, states = ['running'], timeoutMs = 30_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await h.services.db.query<{ status: string; job_id: string }>(
      `SELECT j.status, s.job_id FROM workflow_run_steps s JOIN jobs j ON j.id = s.job_id WHERE s.run_id = $1 AND s.step_id = $2`,
      [runId, stepId],
    );
    if (rows[0] && states.includes(rows[0].status)) return rows[0].job_id;
    if (Date.now() > until) throw new Error(`step ${stepId} of ${runId} is ${rows[0]?.status ?? 'not started'} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

/** The ledger's sums for an account and the wallet's cached totals: they must agree. */
export async function ledger(h: Harness, userId: string): Promise<{ balance: number; reserved: number; charges: number; walletBalance: number; walletReserved: number }> {
  const { rows } = await h.services.db.query<{ balance: string; reserved: string; charges: string }>(
    `SELECT coalesce(sum(amount_micros), 0)::text AS balance, coalesce(sum(reserved_delta_micros), 0)::text AS reserved,
            coalesce(-sum(amount_micros) FILTER (WHERE kind = 'charge'), 0)::text AS charges FROM ledger WHERE user_id = $1`,
    [userId],
  );
  const w = await h.services.db.query<{ balance_micros: string; reserved_micros: string }>('SELECT balance_micros::text, reserved_micros::text FROM wallets WHERE user_id = $1', [
    userId,
  ]);
  return {
    balance: Number(rows[0]!.balance),
    reserved: Number(rows[0]!.reserved),
    charges: Number(rows[0]!.charges),
    walletBalance: Number(w.rows[0]?.balance_micros ?? 0),
    walletReserved: Number(w.rows[0]?.reserved_micros ?? 0),
  };
}

/** The micro-dollars charged to a run's step jobs, from the ledger. */
export async function chargedToRun(h: Harness, runId: string): Promise<number> {
  const { rows } = await h.services.db.query<{ total: string }>(
    `SELECT coalesce(-sum(l.amount_micros), 0)::text AS total FROM ledger l JOIN jobs j ON j.id = l.job_id WHERE l.kind = 'charge' AND j.workflow_run_id = $1`,
    [runId],
  );
  return Number(rows[0]!.total);
}

/** Uploads SMILES as a molecule set (mode molecules); returns its artifact id. */
export function uploadSmiles(h: Harness, token: string, smiles: string[], name = 'library.smi'): Promise<string> {
  return uploadArtifact(h, token, 'molecules', name, smiles.map((s, i) => `${s} m${i}`).join('\n') + '\n');
}

/** Uploads a file as is (mode file); returns its artifact id. */
export function uploadFile(h: Harness, token: string, name: string, content: string): Promise<string> {
  return uploadArtifact(h, token, 'file', name, content, { type: 'text/csv' });
}
