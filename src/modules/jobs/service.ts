// Job rules at the API: validate and estimate per type, submit (reserve + insert + enqueue in
// one transaction), list, read, cancel and delete. The run itself is src/compute/runtime.ts.
import crypto from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import type { Database } from '../../db/database.js';
import type { JobArtifacts } from '../../compute/ports.js';
import type { JobQueue } from '../../compute/queue.js';
import { JOB_TYPE_NAMES, JOB_TYPES } from '../../compute/registry.js';
import { RESOURCE_NAMES, RESOURCES, type Resource } from '../../compute/resources.js';
import { finishJob, type TransitionDeps } from '../../compute/transitions.js';
import { runtimeLimitSec, type JobType } from '../../compute/job-type.js';
import type { IdempotencyContext } from '../../http/idempotency.js';
import { ApiError, httpProblem, notFound, problem, problemBody, type ValidationIssue } from '../../http/problems.js';
import { iso, usd } from '../../http/schemas.js';
import { compileJsonValidator, problemFromIssues, validationIssues } from '../../http/validation.js';
import type { Principal } from '../auth/principal.js';
import type { WalletService } from '../wallet/service.js';
import { JOB_LIST_SORT_FIELDS, MAX_RESULT_MULTIPLE, type JobSubmitRequest, type ListJobsQuery } from './schemas.js';
import { ACTIVE_STATUSES, jobsStore, TERMINAL, type JobRow, type JobStatus } from './store.js';

const ALL_STATUSES: JobStatus[] = ['queued', 'dispatched', 'running', 'completed', 'error', 'cancelled'];
const SORT_COLUMNS: Record<(typeof JOB_LIST_SORT_FIELDS)[number], string> = {
  created_at: 'created_at',
  job_name: 'job_name',
  status: 'status',
  runtime_seconds: 'runtime_seconds',
  charged_amount: 'charged_micros',
};

interface Planned {
  id: string;
  name: string;
  type: JobType;
  resource: Resource;
  payload: unknown;
  expectedRuntimeSec: number;
  costMicros: number;
  assumptions: Record<string, unknown>;
}

export function jobListItem(j: JobRow) {
  return {
    process_id: j.id,
    job_name: j.job_name,
    job_type: j.job_type,
    resource: j.resource,
    status: j.status,
    message: j.message,
    runtime_seconds: j.runtime_seconds,
    charged_amount: usd(j.charged_micros),
    expected_billing_cost: usd(j.reserved_micros),
    created_at: iso(j.created_at),
    started_at: iso(j.started_at),
    finished_at: iso(j.finished_at),
    result_artifact_id: j.result_artifact_id,
  };
}

export class JobService {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    private readonly db: Database,
    private readonly wallet: WalletService,
    private readonly queue: JobQueue,
    private readonly artifacts: JobArtifacts,
    private readonly transitions: TransitionDeps,
    private readonly runtimeGraceSec = 60,
  ) {}

  private validator(type: JobType): ValidateFunction {
    let v = this.validators.get(type.name);
    if (!v) {
      v = compileJsonValidator(type.payload);
      this.validators.set(type.name, v);
    }
    return v;
  }

  /** Validates type, resource and payload (422 with loc under `at`) and estimates the cost. */
  private async plan(principal: Principal, req: { job_type: string; payload: unknown; resource?: string; job_name?: string }, at: (string | number)[]): Promise<Planned> {
    const issues: ValidationIssue[] = [];
    const type = JOB_TYPES.get(req.job_type);
    if (!type) issues.push({ type: 'enum', loc: [...at, 'job_type'], msg: `Input should be one of: ${JOB_TYPE_NAMES.join(', ')}`, input: req.job_type });
    const resource = RESOURCES[req.resource ?? 'default'];
    if (!resource) issues.push({ type: 'enum', loc: [...at, 'resource'], msg: `Input should be one of: ${RESOURCE_NAMES.join(', ')}`, input: req.resource });
    if (type) {
      const validate = this.validator(type);
      if (!validate(req.payload)) issues.push(...validationIssues(validate.errors ?? [], [...at, 'payload'], req.payload));
    }
    if (issues.length) throw problemFromIssues(issues);
    const est = await type!.estimate(req.payload, {
      userId: principal.userId,
      resource,
      countMolecules: (artifactId, port) => this.artifacts.countMolecules(principal.userId, artifactId, port),
    });
    const expected = Math.max(0.001, est.expectedRuntimeSec);
    return {
      id: crypto.randomUUID(),
      name: req.job_name ?? '',
      type: type!,
      resource,
      payload: req.payload,
      expectedRuntimeSec: expected,
      costMicros: Math.max(1, Math.ceil(expected * resource.rateMicrosPerSec)),
      assumptions: est.assumptions,
    };
  }

  async estimate(principal: Principal, req: { job_type: string; payload: unknown; resource?: string }) {
    const p = await this.plan(principal, req, ['body']);
    return {
      cost: usd(p.costMicros)!,
      expected_runtime_sec: p.expectedRuntimeSec,
      job_type: p.type.name,
      rate_per_sec: usd(p.resource.rateMicrosPerSec)!,
      resource: p.resource.name,
      tier: principal.tier,
      assumptions: { ...p.assumptions, runtime_limit_sec: runtimeLimitSec(p.expectedRuntimeSec, this.runtimeGraceSec), billing: 'runtime_seconds x rate_per_sec, at most cost' },
    };
  }

  /** All or nothing: every job is validated, the total reserved, and every row and queue message written in one transaction. */
  async submit<T>(principal: Principal, reqs: Static<typeof JobSubmitRequest>[], at: (i: number) => (string | number)[], idem: IdempotencyContext | null, respond: (ids: string[]) => T): Promise<T> {
    const planned: Planned[] = [];
    for (let i = 0; i < reqs.length; i++) planned.push(await this.plan(principal, reqs[i], at(i)));
    const body = respond(planned.map((p) => p.id));
    await this.db.transaction(async (tx) => {
      await this.wallet.reserveAll(
        tx,
        planned.map((p) => ({ userId: principal.userId, keyId: principal.keyId, jobId: p.id, amountMicros: p.costMicros, ceilingMicros: principal.spendCeilingMicros })),
      );
      for (const p of planned) {
        // The message goes first so that the row is written once, with its id; both commit together.
        const queueJobId = await this.queue.send(tx, p.id);
        await jobsStore.insert(tx, {
          id: p.id,
          userId: principal.userId,
          keyId: principal.keyId,
          name: p.name,
          type: p.type.name,
          resource: p.resource.name,
          payload: p.payload,
          expectedRuntimeSec: p.expectedRuntimeSec,
          rateMicrosPerSec: p.resource.rateMicrosPerSec,
          reservedMicros: p.costMicros,
          info: { assumptions: p.assumptions },
          queueJobId,
        });
      }
      // The idempotency record commits with the jobs: a retry can never make a second set.
      await idem?.saveInTx(tx, 200, body);
    });
    return body;
  }

  private async own(userId: string, processId: string): Promise<JobRow> {
    const job = isUuid(processId) ? await jobsStore.get(this.db, userId, processId) : null;
    if (!job) throw notFound(`job ${processId}`);
    return job;
  }

  async list(userId: string, q: Static<typeof ListJobsQuery>) {
    const where = ['user_id = $1'];
    const params: unknown[] = [userId];
    if (q.status) {
      const wanted = q.status.split(',').map((s) => s.trim()).filter(Boolean);
      const bad = wanted.filter((s) => !ALL_STATUSES.includes(s as JobStatus));
      if (bad.length) throw problemFromIssues([{ type: 'enum', loc: ['query', 'status'], msg: `Each status should be one of: ${ALL_STATUSES.join(', ')}`, input: q.status }]);
      params.push(wanted);
      where.push(`status = ANY($${params.length}::text[])`);
    }
    if (q.job_type) {
      params.push(q.job_type);
      where.push(`job_type = $${params.length}`);
    }
    if (q.q) {
      params.push(`%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(job_name ILIKE $${params.length} OR id::text ILIKE $${params.length})`);
    }
    let order = 'created_at DESC';
    if (q.sort) {
      const desc = q.sort.startsWith('-');
      const field = q.sort.replace(/^[-+]/, '') as keyof typeof SORT_COLUMNS;
      if (!SORT_COLUMNS[field]) throw problemFromIssues([{ type: 'enum', loc: ['query', 'sort'], msg: `Input should be one of ${JOB_LIST_SORT_FIELDS.join(', ')}, optionally prefixed with -`, input: q.sort }]);
      order = `${SORT_COLUMNS[field]} ${desc ? 'DESC' : 'ASC'} NULLS LAST`;
    }
    const limit = q.limit ?? 100;
    const offset = q.offset ?? 0;
    const cond = where.join(' AND ');
    const [items, agg, names] = await Promise.all([
      this.db.query<JobRow>(`SELECT * FROM jobs WHERE ${cond} ORDER BY ${order}, id LIMIT ${limit} OFFSET ${offset}`, params),
      this.db.query<{ total: number; pids: string[] | null }>(
        `SELECT count(*)::int AS total, (SELECT array_agg(id::text) FROM (SELECT id FROM jobs WHERE ${cond} ORDER BY ${order}, id LIMIT 1000) p) AS pids FROM jobs WHERE ${cond}`,
        params,
      ),
      this.db.query<{ job_name: string }>(`SELECT DISTINCT job_name FROM jobs WHERE ${cond} ORDER BY job_name LIMIT 1000`, params),
    ]);
    return {
      items: items.rows.map(jobListItem),
      job_names: names.rows.map((r) => r.job_name),
      job_pids: agg.rows[0].pids ?? [],
      limit,
      offset,
      total: agg.rows[0].total,
    };
  }

  async status(userId: string, processId: string) {
    const j = await this.own(userId, processId);
    return { process_id: j.id, status: j.status, message: j.message || null, result_artifact_id: j.result_artifact_id };
  }

  async info(userId: string, processId: string) {
    const j = await this.own(userId, processId);
    return {
      process_id: j.id,
      info: {
        ...jobListItem(j),
        payload: j.payload,
        progress: j.progress,
        attempts: j.attempts,
        dispatched_at: iso(j.dispatched_at),
        expected_runtime_sec: j.expected_runtime_sec,
        runtime_limit_sec: runtimeLimitSec(j.expected_runtime_sec, this.runtimeGraceSec),
        rate_per_sec: usd(j.rate_micros_per_sec),
        reserved_usd: usd(j.reserved_micros),
        cancel_requested: j.cancel_requested,
        ...j.info,
      },
    };
  }

  private async resultOf(j: JobRow): Promise<unknown> {
    if (!TERMINAL.has(j.status)) throw problem('job-not-finished', `job ${j.id} is ${j.status}; its result is available once it completes`);
    if (j.status !== 'completed' || !j.result_artifact_id) {
      throw httpProblem(409, `job ${j.id} ended with status ${j.status}${j.message ? `: ${j.message}` : ''}; it has no result`, { retry: 'terminal' });
    }
    return this.artifacts.readResult(j.user_id, j.result_artifact_id);
  }

  async result(userId: string, processId: string): Promise<unknown> {
    return this.resultOf(await this.own(userId, processId));
  }

  async resultMultiple(userId: string, processIds: string, instance: string, requestId: string): Promise<Record<string, unknown>> {
    const ids = [...new Set(processIds.split(',').map((s) => s.trim()).filter(Boolean))];
    if (ids.length === 0 || ids.length > MAX_RESULT_MULTIPLE) {
      throw problemFromIssues([
        { type: ids.length ? 'too_long' : 'too_short', loc: ['query', 'process_ids'], msg: `Give 1 to ${MAX_RESULT_MULTIPLE} comma-separated process ids (got ${ids.length})`, input: processIds },
      ]);
    }
    const out: Record<string, unknown> = {};
    for (const id of ids) {
      try {
        out[id] = await this.resultOf(await this.own(userId, id));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        out[id] = problemBody(err, instance, requestId);
      }
    }
    return out;
  }

  async cancel(userId: string, processId: string) {
    await this.own(userId, processId);
    const finished = await this.db.transaction(async (tx) => {
      const j = await jobsStore.get(tx, userId, processId, true);
      if (!j) throw notFound(`job ${processId}`);
      if (TERMINAL.has(j.status)) throw problem('job-already-finished', `job ${processId} already ended with status ${j.status}`);
      return finishJob(tx, this.transitions, j.id, { status: 'cancelled', message: 'cancelled by the user', chargeable: true });
    });
    if (!finished) throw problem('job-already-finished', `job ${processId} ended before it could be cancelled`);
    return { message: `job ${processId} cancelled; charged $${usd(finished.charged_micros)} for ${finished.runtime_seconds.toFixed(2)} s of runtime` };
  }

  async delete(userId: string, processId: string) {
    await this.own(userId, processId);
    // The job row and its artifact rows go in one transaction; the files after it commits
    // (a file left by a crash then is an orphan for the sweep, never a visible artifact).
    const keys = await this.db.transaction(async (tx) => {
      const j = await jobsStore.get(tx, userId, processId, true);
      if (!j) throw notFound(`job ${processId}`);
      if (ACTIVE_STATUSES.includes(j.status)) throw problem('job-active', `job ${processId} is ${j.status}; cancel it before deleting it`);
      const removed = await this.artifacts.deleteRowsForJob(tx, userId, j.id);
      await jobsStore.delete(tx, userId, j.id);
      return removed;
    });
    await this.artifacts.removeObjects(keys);
    return { message: `job ${processId} and its result deleted` };
  }
}

function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}
