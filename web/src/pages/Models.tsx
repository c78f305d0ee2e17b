// Models (docs/console.md, "Models"; issue 28 point 2): train a D-MPNN from an uploaded CSV with a
// live learning curve (an mpnn_train job, docs/models.md), the model cards of the public models and
// yours, and predictions. Routes: #/models, #/models/job/<process id> (a training followed live),
// #/models/public/<id> and #/models/user/<name> (a model's card; #/models/<name or id> finds either).
import { useCallback, useEffect, useState } from 'react';
import type { components } from 'crucible-client';
import { api, ok } from '../api/client.ts';
import { toProblem, type Problem } from '../api/problem.ts';
import { LearningCurve, type CurvePoint } from '../components/LearningCurve.tsx';
import { cardFromInfo, cardFromPublic, cardFromResult, ModelCard, type Card } from '../components/ModelCard.tsx';
import { ProblemView } from '../components/ProblemView.tsx';
import { href } from '../router.ts';
import { Predict } from './models/Predict.tsx';
import { TrainForm } from './models/TrainForm.tsx';
import { metricName, TrainingView } from './models/TrainingView.tsx';
import './Models.css';
import { ListTable } from '../components/ListTable.tsx';

type Models = components['schemas']['InferenceModels']['models'];
type TrainResult = components['schemas']['MpnnTrainResult'];
type Obj = Record<string, unknown>;

/** The route's model as an inference reference (public/<id> or user/<name>), or null. */
function routeModel(rest: string[], models: Models): string | null {
  if (rest[0] === 'public' || rest[0] === 'user') return rest[1] ? `${rest[0]}/${rest[1]}` : null;
  if (!rest[0] || rest[0] === 'job') return null;
  const found = models.find((m) => m.model === `public/${rest[0]}`) ?? models.find((m) => m.model === `user/${rest[0]}`) ?? models.find((m) => m.model === rest[0]);
  return found?.model ?? null;
}

export default function ModelsPage({ rest }: { rest: string[] }) {
  const [models, setModels] = useState<Models>([]);
  const [publicCards, setPublicCards] = useState<Obj[]>([]);
  const [chosen, setChosen] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);

  const load = useCallback(async () => {
    try {
      const [m, p] = await Promise.all([ok(api.GET('/api/v1/inference/models')), ok(api.GET('/api/v1/models/public'))]);
      setModels(m.models);
      setPublicCards(p.models as Obj[]);
      setChosen((c) => c || m.models[0]?.model || '');
    } catch (err) {
      setProblem(toProblem(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const job = rest[0] === 'job' ? (rest[1] ?? null) : null;
  const shown = routeModel(rest, models);
  // The model the route names is the one to predict with.
  useEffect(() => {
    if (shown) setChosen(shown);
  }, [shown]);

  return (
    <section aria-labelledby="page-title" className="models-page">
      <h1 id="page-title">Models</h1>
      <ProblemView problem={problem} />
      {job && (
        <TrainingView
          key={job}
          id={job}
          onDone={(ref) => {
            setChosen(ref);
            void load();
          }}
        />
      )}
      {shown && <ModelView key={shown} reference={shown} publicCards={publicCards} />}
      <div className="models-grid">
        <TrainForm onSubmitted={(id) => (window.location.hash = href('models', 'job', id))} />
        <Predict models={models} model={chosen} onModel={setChosen} />
      </div>
      <ModelList models={models} current={shown} />
    </section>
  );
}

/** A model's card: a public model's card.json, or yours from GET /user-models/mpnn and, while its training job exists, that job's result (the full card and the learning curve). */
function ModelView({ reference, publicCards }: { reference: string; publicCards: Obj[] }) {
  const [card, setCard] = useState<Card | null>(null);
  const [curve, setCurve] = useState<CurvePoint[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [kind, name] = [reference.slice(0, reference.indexOf('/')), reference.slice(reference.indexOf('/') + 1)];

  useEffect(() => {
    if (kind !== 'public') return;
    const c = publicCards.find((p) => p.id === name);
    if (c) setCard(cardFromPublic(c));
  }, [kind, name, publicCards]);

  useEffect(() => {
    if (kind !== 'user') return;
    const stop = new AbortController();
    (async () => {
      const r = await ok(api.GET('/api/v1/user-models/mpnn', { params: { query: { model_name: name } }, signal: stop.signal }));
      const info = r.model_info?.[name];
      if (!info) return;
      setCard(cardFromInfo(name, info as unknown as Obj));
      if (!info.trained_by_process_id) return;
      // The training job's result, while the job exists: the full card and the curve.
      const res = (await ok(api.GET('/api/v1/jobs/result', { params: { query: { process_id: info.trained_by_process_id } }, signal: stop.signal })).catch(
        () => null,
      )) as TrainResult | null;
      if (!res || res.job_type !== 'mpnn_train' || res.model_id !== info.model_id) return;
      setCard(cardFromResult(res.model_card as unknown as Obj, res.val_metrics));
      setCurve(res.learning_curve);
    })().catch((err: unknown) => !stop.signal.aborted && setProblem(toProblem(err)));
    return () => stop.abort();
  }, [kind, name]);

  return (
    <div className="model-view">
      <ProblemView problem={problem} />
      {card ? <ModelCard card={card} /> : !problem && <p className="muted">Loading the model card…</p>}
      {card && curve && (
        <div className="card">
          <h3>How it trained</h3>
          <LearningCurve points={curve} metric={metricName(card.task)} />
        </div>
      )}
    </div>
  );
}

function ModelList({ models, current }: { models: Models; current: string | null }) {
  return (
    <>
      <h2 className="section">Models you can use</h2>
      <ListTable label="Models you can use" columns={['Model', 'Kind', 'Target']}>
        {models.map((m) => {
          const [kind, ...name] = m.model.split('/');
          return (
            <tr key={m.model}>
              <td>
                <a href={href('models', kind!, name.join('/'))} aria-current={m.model === current ? 'page' : undefined}>
                  {m.name}
                </a>{' '}
                <span className="muted small mono">{m.model}</span>
              </td>
              <td>
                {m.kind === 'user' ? 'yours' : 'public'}, {m.task}
              </td>
              <td>
                {m.target}
                {m.units ? ` (${m.units})` : ''}
              </td>
            </tr>
          );
        })}
      </ListTable>
    </>
  );
}
