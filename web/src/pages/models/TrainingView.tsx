// A training job followed live (docs/console.md, "Models"): GET /jobs/status every half second
// while it runs, its `progress` (member, epoch, train_loss, val_metric after every epoch) drawn as
// the learning curve; when it completes, the result's full learning_curve replaces the points seen
// live (a fast epoch can fall between two polls) and the model's card is shown (GET /jobs/result).
import { useEffect, useState } from 'react';
import type { components } from 'crucible-client';
import { api, ok } from '../../api/client.ts';
import { toProblem, type Problem } from '../../api/problem.ts';
import { LearningCurve, type CurvePoint } from '../../components/LearningCurve.tsx';
import { cardFromResult, ModelCard } from '../../components/ModelCard.tsx';
import { ProblemView } from '../../components/ProblemView.tsx';
import { href } from '../../router.ts';

type Status = components['schemas']['JobStatusResponse'];
type TrainResult = components['schemas']['MpnnTrainResult'];
const ENDED = ['completed', 'error', 'cancelled'];

/** The validation metric's name for a task. */
export const metricName = (task: string | undefined) => (task === 'classification' ? 'ROC AUC' : 'RMSE');

/** A point from /jobs/status's progress (member is 1-based there, 0-based in learning_curve). */
function pointOf(p: Record<string, unknown> | null | undefined): CurvePoint | null {
  if (!p || typeof p.epoch !== 'number' || typeof p.train_loss !== 'number') return null;
  return {
    member: Number(p.member ?? 1) - 1,
    epoch: p.epoch,
    epochs: Number(p.epochs ?? p.epoch),
    train_loss: p.train_loss,
    val_metric: typeof p.val_metric === 'number' ? p.val_metric : null,
  };
}

export function TrainingView({ id, onDone }: { id: string; onDone?: (modelReference: string) => void }) {
  const [status, setStatus] = useState<Status | null>(null);
  const [points, setPoints] = useState<CurvePoint[]>([]);
  const [result, setResult] = useState<TrainResult | null>(null);
  const [task, setTask] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | null>(null);

  useEffect(() => {
    const stop = new AbortController();
    const signal = stop.signal;
    const q = { params: { query: { process_id: id } }, signal };
    (async () => {
      const info = await ok(api.GET('/api/v1/jobs/info', q)).catch(() => null);
      const payload = (info?.info.payload ?? null) as { task?: string } | null;
      setTask(payload?.task);
      for (;;) {
        let s: Status;
        try {
          s = await ok(api.GET('/api/v1/jobs/status', q));
        } catch (err) {
          if (signal.aborted) return;
          setProblem(toProblem(err));
          await new Promise((r) => setTimeout(r, 2000));
          continue;
        }
        setStatus(s);
        const pt = pointOf(s.progress);
        if (pt) setPoints((old) => (old.some((o) => o.member === pt.member && o.epoch === pt.epoch) ? old : [...old, pt]));
        if (ENDED.includes(s.status)) break;
        await new Promise((r) => setTimeout(r, 500));
        if (signal.aborted) return;
      }
      setProblem(null);
      const r = await ok(api.GET('/api/v1/jobs/status', q));
      setStatus(r);
      if (r.status !== 'completed') return;
      const res = (await ok(api.GET('/api/v1/jobs/result', q))) as TrainResult;
      if (res.job_type !== 'mpnn_train') throw new Error(`job ${id} is a ${String(res.job_type)} job, not a training: open it on the Jobs page`);
      setResult(res);
      setTask(res.model_card.task);
      onDone?.(res.model_card.model);
      setPoints(res.learning_curve.map((p) => ({ member: p.member, epoch: p.epoch, epochs: p.epochs, train_loss: p.train_loss, val_metric: p.val_metric })));
    })().catch((err: unknown) => !signal.aborted && setProblem(toProblem(err)));
    return () => stop.abort();
  }, [id]);

  async function cancel() {
    try {
      await ok(api.DELETE('/api/v1/jobs/cancel', { params: { query: { process_id: id } } }));
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  const running = !status || !ENDED.includes(status.status);
  const fraction = status?.status === 'completed' ? 1 : (status?.progress?.fraction ?? 0);
  const last = points[points.length - 1];
  return (
    <article className="card training" aria-labelledby="training-title">
      <h2 id="training-title">
        Training <span className="mono small">{id}</span>
      </h2>
      <ProblemView problem={problem} />
      <div className="row">
        <span role="status" className="job-status">
          {status ? status.status : 'submitted'}
          {status?.message ? `: ${status.message}` : ''}
        </span>
        <progress max={1} value={fraction} aria-label="Training progress" />
        <span className="muted">{Math.round(fraction * 100)}%</span>
        {running && (
          <button type="button" className="danger" onClick={() => void cancel()}>
            Cancel training
          </button>
        )}
      </div>
      {last && (
        <p className="small epoch-line" aria-live="polite">
          {result ? 'Every epoch' : 'Live'}: epoch {last.epoch} of {last.epochs}
          {last.member > 0 || points.some((p) => p.member > 0) ? ` (member ${last.member + 1})` : ''}, training loss {last.train_loss.toPrecision(4)}, validation {metricName(task)}{' '}
          {last.val_metric === null ? 'n/a' : last.val_metric.toPrecision(4)}
        </p>
      )}
      <LearningCurve points={points} metric={metricName(task)} live={!result} />
      {result && (
        <>
          <p>
            The model <a href={href('models', 'user', result.model_name)}>{result.model_name}</a> is ready: predict with <code>{result.model_card.model}</code> below.
          </p>
          <ModelCard card={cardFromResult(result.model_card as unknown as Record<string, unknown>, result.val_metrics)} headingLevel={3} />
        </>
      )}
    </article>
  );
}
