// Jobs (docs/console.md): choose a job type, fill the form generated from its payload schema in
// /openapi.json (JobSubmitRequest is a oneOf discriminated by job_type; docs/api-decisions.md, "The
// OpenAPI document"), estimate (POST /jobs/estimate: cost, runtime), submit (POST /jobs/submit),
// then follow it live: GET /jobs/status for progress and a long poll on GET /events for the end
// (docs/events.md), the result as a table with depictions (GET /jobs/result), the charge
// (GET /jobs/info), cancel (DELETE /jobs/cancel).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { components } from 'crucible-client';
import { api, crucible, ok, saveDownload, untilEnded } from '../api/client.ts';
import { issuesAt, toProblem, type Problem } from '../api/problem.ts';
import { FieldError, ProblemView } from '../components/ProblemView.tsx';
import { ResultView } from '../components/ResultView.tsx';
import { artifactName, defaultJobName } from '../lib/names.ts';
import { numberText, usd } from '../lib/units.ts';
import { href } from '../router.ts';
import { SchemaForm, valuesToObject, type Schema, type Values } from '../components/SchemaForm.tsx';
import { ListTable } from '../components/ListTable.tsx';

type Estimate = components['schemas']['JobEstimateResponse'];
type Status = components['schemas']['JobStatusResponse'];
type Body = components['schemas']['JobSubmitRequest'];
type ListItem = components['schemas']['JobListItem'];
interface JobType {
  name: string;
  description: string;
  payload: Schema;
  resources: string[];
}

let typesOnce: Promise<JobType[]> | null = null;
/** The job types and their payload schemas, from the OpenAPI document (fetched once). */
function jobTypes(): Promise<JobType[]> {
  typesOnce ??= fetch('/openapi.json').then(async (r) => {
    const doc = (await r.json()) as { components: { schemas: Record<string, Schema> } };
    const ref = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!]! : s);
    return (doc.components.schemas.JobSubmitRequest!.oneOf ?? []).map((b) => {
      const branch = ref(b);
      const props = branch.properties!;
      return {
        name: String(props.job_type!.enum![0]),
        description: branch.description ?? '',
        payload: ref(props.payload!),
        resources: (props.resource?.enum ?? ['default']).map(String),
      };
    });
  });
  return typesOnce;
}

const FIELDS = [
  ['body', 'job_name'],
  ['body', 'resource'],
  ['body', 'payload'],
];

export default function Jobs({ rest = [] }: { rest?: string[] }) {
  const [types, setTypes] = useState<JobType[]>([]);
  const [type, setType] = useState('properties');
  // null: the default name (lib/names.ts), until the user writes one.
  const [name, setName] = useState<string | null>(null);
  const [resource, setResource] = useState('default');
  const [values, setValues] = useState<Values>({});
  const [local, setLocal] = useState<Record<string, string>>({});
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  // The job shown is the route's (#/jobs/<id>): it survives a reload of the list and a sign-in.
  const job = rest[0] ?? null;
  const [listed, setListed] = useState(0);
  const [busy, setBusy] = useState(false);

  const [sets, setSets] = useState<{ value: string; label: string; name: string }[]>([]);

  useEffect(() => {
    jobTypes().then(setTypes, (err: unknown) => setProblem(toProblem(err)));
    // The library's molecule sets, offered for input_artifact_id.
    ok(api.GET('/api/v1/artifacts', { params: { query: { data_kind: 'molecules', limit: 100 } } })).then(
      (r) => {
        const seen = new Set<string>();
        setSets(
          r.items
            .filter((i) => !seen.has(i.artifact_id) && seen.add(i.artifact_id))
            .map((i) => ({ value: i.artifact_id, name: artifactName(i), label: `${artifactName(i)} (${i.record_count.toLocaleString()} molecules)` })),
        );
      },
      () => setSets([]),
    );
  }, []);
  const current = types.find((t) => t.name === type);
  const molecules = [values.molecules, values.smiles].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? '';
  const chosenSet = sets.find((x) => x.value === values.input_artifact_id)?.name ?? null;
  const jobName = name ?? defaultJobName(type, molecules.split('\n'), chosenSet);

  function body(): Body | null {
    if (!current) return null;
    const { value, errors } = valuesToObject(current.payload, values);
    setLocal(errors);
    if (Object.keys(errors).length) return null;
    return { job_name: jobName, job_type: type, resource, payload: value } as Body;
  }

  async function run(e: FormEvent, submit: boolean) {
    e.preventDefault();
    setProblem(null);
    const b = body();
    if (!b) return;
    setBusy(true);
    try {
      // An estimate takes no job name (JobEstimateRequest).
      const { job_name: _name, ...estimateBody } = b;
      if (!submit) setEstimate(await ok(api.POST('/api/v1/jobs/estimate', { body: estimateBody })));
      else {
        const r = await ok(api.POST('/api/v1/jobs/submit', { body: b }));
        window.location.hash = href('jobs', r.process_id);
        setListed((n) => n + 1);
        setEstimate(null);
      }
    } catch (err) {
      if (!submit) setEstimate(null);
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  }

  const changed = () => setEstimate(null);
  const nameIssues = issuesAt(problem, ['body', 'job_name']);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Jobs</h1>
      <form className="keyform jobform" onSubmit={(e) => void run(e, estimate !== null)} aria-labelledby="new-job-title">
        <fieldset>
          <legend id="new-job-title">New job</legend>
          <ProblemView problem={problem} fields={FIELDS} />
          <div className="grid2">
            <label>
              Job type
              <select
                value={type}
                onChange={(e) => {
                  setType(e.target.value);
                  setValues({});
                  changed();
                }}
              >
                {types.map((t) => (
                  <option key={t.name}>{t.name}</option>
                ))}
              </select>
            </label>
            <label>
              Resource
              <select
                value={resource}
                onChange={(e) => {
                  setResource(e.target.value);
                  changed();
                }}
              >
                {(current?.resources ?? ['default']).map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </label>
          </div>
          {current && <p className="muted small">{current.description}</p>}
          <div className="field">
            <label htmlFor="f-body-job_name">Job name</label>
            <input
              id="f-body-job_name"
              value={jobName}
              onChange={(e) => {
                setName(e.target.value);
                changed();
              }}
              aria-invalid={nameIssues.length > 0 || undefined}
              aria-describedby={nameIssues.length ? 'f-body-job_name-error' : undefined}
            />
            <FieldError id="f-body-job_name-error" messages={nameIssues} />
          </div>
          {current && (
            <SchemaForm
              schema={current.payload}
              values={values}
              onChange={(v) => {
                setValues(v);
                changed();
              }}
              base={['body', 'payload']}
              problem={problem}
              localErrors={local}
              suggestions={{ input_artifact_id: sets }}
            />
          )}
          {estimate && (
            <p className="notice" role="status">
              Estimate: <strong>{usd(estimate.cost)}</strong> reserved, about {numberText(estimate.expected_runtime_sec, 1)} s on {estimate.resource} ({usd(estimate.rate_per_sec)}
              /s, {estimate.tier_name} tier).
            </p>
          )}
          <div className="row">
            <button type="button" className={estimate ? 'secondary' : undefined} disabled={busy || !current} onClick={(e) => void run(e, false)}>
              Estimate
            </button>
            <button type="submit" disabled={busy || !estimate}>
              Submit
            </button>
          </div>
        </fieldset>
      </form>
      {job && <JobView key={job} id={job} onEnded={() => setListed((n) => n + 1)} />}
      <RecentJobs refresh={listed} current={job} />
    </section>
  );
}

/** One job followed live: status and progress, then its result and charge. */
function JobView({ id, onEnded }: { id: string; onEnded: () => void }) {
  const [status, setStatus] = useState<Status | null>(null);
  const [ended, setEnded] = useState(false);
  const [result, setResult] = useState<Record<string, unknown> | null>(null);
  const [charge, setCharge] = useState<{ charged: number | null; runtime: number | null } | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const card = useRef<HTMLElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  // The page scrolls to the result when it arrives (the form above may fill the screen), or to the card when the job ends without one.
  useEffect(() => {
    if (result) resultRef.current?.scrollIntoView({ block: 'start' });
    else if (ended && status?.status !== 'completed') card.current?.scrollIntoView({ block: 'start' });
  }, [result, ended]);

  useEffect(() => {
    const stop = new AbortController();
    let done = false;
    const signal = stop.signal;
    // Progress: the status every second while the job runs.
    const poll = async () => {
      while (!done && !signal.aborted) {
        try {
          const s = await ok(api.GET('/api/v1/jobs/status', { params: { query: { process_id: id } }, signal }));
          setStatus(s);
          if (['completed', 'error', 'cancelled'].includes(s.status)) break;
        } catch {
          if (signal.aborted) return;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    // The end: the SDK's wait on the events feed's long poll (docs/events.md).
    const follow = async () => {
      const s = await untilEnded(
        () => crucible.waitForJob(id, { signal }),
        signal,
        (err) => setProblem(toProblem(err)),
      );
      if (s === null) return;
      done = true;
      const info = await ok(api.GET('/api/v1/jobs/info', { params: { query: { process_id: id } }, signal }));
      setStatus(s);
      setCharge({ charged: (info.info.charged_amount as number | null) ?? null, runtime: (info.info.runtime_seconds as number | null) ?? null });
      setEnded(true);
      onEnded();
      if (s.status === 'completed') setResult((await ok(api.GET('/api/v1/jobs/result', { params: { query: { process_id: id } }, signal }))) as Record<string, unknown>);
    };
    void poll();
    follow().catch((err: unknown) => !signal.aborted && setProblem(toProblem(err)));
    return () => stop.abort();
  }, [id]);

  async function cancel() {
    setProblem(null);
    try {
      await ok(api.DELETE('/api/v1/jobs/cancel', { params: { query: { process_id: id } } }));
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  // Full only when completed: a cancelled or failed job keeps the fraction it reached.
  const fraction = status?.status === 'completed' ? 1 : (status?.progress?.fraction ?? 0);
  return (
    <article className="card job" aria-labelledby="job-title" ref={card}>
      <h2 id="job-title">
        Job <span className="mono small">{id}</span>
      </h2>
      <ProblemView problem={problem} />
      <div className="row">
        <span role="status" className="job-status">
          {status ? status.status : 'submitted'}
          {status?.message ? `: ${status.message}` : ''}
        </span>
        <progress max={1} value={fraction} aria-label="Job progress" />
        <span className="muted">{Math.round(fraction * 100)}%</span>
        {!ended && (
          <button type="button" className="danger" onClick={() => void cancel()}>
            Cancel job
          </button>
        )}
      </div>
      {charge && (
        <p className="charge">
          Charged <strong>{usd(charge.charged)}</strong>
          {charge.runtime != null && ` for ${numberText(charge.runtime, 2)} s`}.{' '}
          {status?.result_artifact_id && (
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void saveDownload(`/api/v1/artifacts/${encodeURIComponent(status.result_artifact_id!)}/download`, `${id}.zip`).catch((err: unknown) => setProblem(toProblem(err)))
              }
            >
              Download the result (zip)
            </button>
          )}
        </p>
      )}
      {result && (
        <div ref={resultRef} className="result-anchor">
          <ResultView result={result} artifactId={status?.result_artifact_id ?? null} />
        </div>
      )}
    </article>
  );
}

/** The 20 latest jobs (GET /jobs/list), each opened at #/jobs/<id>. */
function RecentJobs({ refresh, current }: { refresh: number; current: string | null }) {
  const [items, setItems] = useState<ListItem[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    ok(api.GET('/api/v1/jobs/list', { params: { query: { limit: 20, sort: '-created_at' } } })).then(
      (r) => setItems(r.items),
      (err: unknown) => setProblem(toProblem(err)),
    );
  }, [refresh]);
  return (
    <>
      <h2 className="section">Recent jobs</h2>
      <ProblemView problem={problem} />
      <ListTable label="Recent jobs" columns={['Name', 'Type', 'Status', 'Charged', 'Created']} empty={items.length === 0 && 'No jobs yet.'}>
        {items.map((j) => (
          <tr key={j.process_id}>
            <td>
              <a href={href('jobs', j.process_id)} aria-current={j.process_id === current ? 'page' : undefined}>
                {j.job_name}
              </a>
            </td>
            <td>{j.job_type}</td>
            <td>{j.status}</td>
            <td>{usd(j.charged_amount)}</td>
            <td>{j.created_at ? new Date(j.created_at).toLocaleString() : '–'}</td>
          </tr>
        ))}
      </ListTable>
    </>
  );
}
