// Inference over HTTP (docs/models.md, "Inference"): callable models, synchronous predictions
// and asynchronous requests, counted against the monthly allowance, never charged.
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import type { PredictionItem } from '../../compute/types/mpnn-predict.js';
import { UtilityRequestsQuery } from '../utilities/schemas.js';
import type { PredictBody, SubmitBody } from './service.js';
import { InferenceModels, InferenceRequest, InferenceRequestList, InferenceResultPage, InferenceSubmitRequest, PredictRequest, PredictResponse } from './schemas.js';

const SUBMIT_BODY_LIMIT = 32 * 1024 * 1024;
const RequestIdParams = Type.Object({ request_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
const ResultQuery = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('json')], { default: 'csv' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1000, description: 'JSON page size' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

const csvField = (v: string | number | boolean | null) => {
  const s = v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The CSV of a request's predictions; from a molecule set, two more columns: the record's id and name. */
function* csvLines(preds: PredictionItem[], fromSet: boolean): Generator<string> {
  yield `smiles,prediction,uncertainty,in_domain,error${fromSet ? ',id,name' : ''}\n`;
  let chunk = '';
  for (const p of preds) {
    const fields = [p.smiles, p.prediction, p.uncertainty, p.in_domain, p.error];
    if (fromSet) fields.push(p.id ?? null, p.name ?? null);
    chunk += fields.map(csvField).join(',') + '\n';
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

export const inferenceRoutes: RoutePlugin = async (app, { services }) => {
  const { inference } = services;
  const tags = ['inference'];

  app.get(
    '/inference/models',
    {
      schema: {
        operationId: 'listInferenceModels',
        tags,
        summary: 'The models you can predict with: the public catalog and your MPNN models',
        response: { 200: Type.Ref(InferenceModels, { description: 'The models you can call' }) },
      },
    },
    async (request) => inference.models(principalOf(request).userId),
  );

  app.post(
    '/inference/predict',
    {
      config: { idempotency: true },
      schema: {
        operationId: 'predict',
        tags,
        summary: 'Predict for up to 100 SMILES now (counts 1 call against the monthly allowance)',
        body: Type.Ref(PredictRequest),
        response: { 200: Type.Ref(PredictResponse, { description: 'A prediction per molecule, in input order' }) },
      },
    },
    async (request, reply) => {
      const idem = request.idempotency;
      // The response is serialised (by this route's response schema) in the transaction that
      // counts the call: one the serialiser refuses fails the call and counts nothing, and the
      // idempotent replay pins exactly the text sent.
      let text = '';
      await inference.predict(principalOf(request), request.body as PredictBody, async (tx, response) => {
        text = reply.serialize(response) as string;
        await idem?.saveInTx(tx, 200, JSON.parse(text));
      });
      // Sent as the text pinned (a string with a JSON content type is not serialised again).
      return reply.type('application/json; charset=utf-8').send(text as never);
    },
  );

  app.post(
    '/inference/submit',
    {
      bodyLimit: SUBMIT_BODY_LIMIT,
      config: { idempotency: true },
      schema: {
        operationId: 'submitInferenceRequest',
        tags,
        summary: 'Predict for up to 100,000 SMILES or an uploaded set, asynchronously (counts ceil(molecules / 100) calls)',
        body: Type.Ref(InferenceSubmitRequest),
        response: { 200: Type.Object({ request_id: Type.String() }, { additionalProperties: false, description: 'The prediction request is queued: its id' }) },
      },
    },
    async (request) => {
      const idem = request.idempotency;
      const id = await inference.submit(
        principalOf(request),
        request.body as SubmitBody,
        (tx, requestId) => idem?.saveInTx(tx, 200, { request_id: requestId }) ?? Promise.resolve(),
      );
      return { request_id: id };
    },
  );

  app.get(
    '/inference/requests',
    {
      schema: {
        operationId: 'listInferenceRequests',
        tags,
        summary: 'Your inference requests, newest first',
        querystring: UtilityRequestsQuery,
        response: { 200: Type.Ref(InferenceRequestList, { description: 'A page of your asynchronous prediction requests' }) },
      },
    },
    async (request) => inference.list(principalOf(request).userId, request.query),
  );

  app.get(
    '/inference/requests/:request_id',
    {
      schema: {
        operationId: 'getInferenceRequest',
        tags,
        summary: 'A request: status, progress and counts',
        params: RequestIdParams,
        response: { 200: Type.Ref(InferenceRequest, { description: "The request's status, progress and counts" }) },
      },
    },
    async (request) => inference.get(principalOf(request).userId, request.params.request_id),
  );

  app.get(
    '/inference/requests/:request_id/result',
    {
      schema: {
        operationId: 'getInferenceResult',
        tags,
        summary: 'The predictions of a completed request: CSV (streamed) or, with format=json, a page',
        params: RequestIdParams,
        querystring: ResultQuery,
        response: {
          200: {
            description:
              'text/csv (smiles,prediction,uncertainty,in_domain,error; from a molecule set, then id,name: the record id and name) or, with format=json, an InferenceResultPage',
            content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: Type.Ref(InferenceResultPage) } },
          },
        },
      },
    },
    async (request, reply) => {
      const { job, result } = await inference.result(principalOf(request).userId, request.params.request_id);
      const q = request.query;
      if (q.format === 'json') {
        const offset = q.offset ?? 0;
        const limit = q.limit ?? 1000;
        return reply.type('application/json').send({
          request_id: job.id,
          model: (job.payload as { model: string }).model,
          total: result.predictions.length,
          limit,
          offset,
          predictions: result.predictions.slice(offset, offset + limit),
        });
      }
      reply.type('text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="predictions-${job.id}.csv"`);
      const fromSet = (job.payload as { input_artifact_id?: string }).input_artifact_id !== undefined;
      return reply.send(Readable.from(csvLines(result.predictions, fromSet)));
    },
  );

  app.delete(
    '/inference/requests/:request_id',
    {
      schema: {
        operationId: 'deleteInferenceRequest',
        tags,
        summary: 'Cancel a request that is still running, or delete a finished one with its predictions',
        params: RequestIdParams,
        response: {
          200: Type.Object(
            { request_id: Type.String(), status: Type.Union([Type.Literal('cancelled'), Type.Literal('deleted')]) },
            { additionalProperties: false, description: 'A running request is cancelled; an ended one is deleted with its result' },
          ),
        },
      },
    },
    async (request) => inference.remove(principalOf(request).userId, request.params.request_id),
  );
};
