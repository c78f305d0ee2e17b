// Inference over HTTP (docs/models.md, "Inference"): callable models, synchronous predictions
// and asynchronous requests, counted against the monthly allowance, never charged.
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { ok, routeFactory } from '../../api/declare-route.js';
import { routeSequence } from '../../api/module.js';
import { pinReply, principalOf } from '../../api/route.js';
import type { PredictionItem } from '../../compute/types/mpnn-predict.js';
import { REQUEST_BODY_LIMIT, RequestQueued, RequestRemoved, UtilityRequestsQuery } from '../utilities/schemas.js';
import type { PredictBody, SubmitBody } from './service.js';
import { InferenceModels, InferenceRequest, InferenceRequestList, InferenceResultPage, InferenceSubmitRequest, PredictRequest, PredictResponse } from './schemas.js';

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

const route = routeFactory({ tags: ['inference'] });

export const inferenceRoutes = routeSequence(
  route('GET /inference/models', 'listInferenceModels', {
    summary: 'The models you can predict with: the public catalog and your MPNN models',
    response: ok(InferenceModels, 'The models you can call'),
    handler: async ({ inference }, request) => inference.models(principalOf(request).userId),
  }),
  route.idempotent('POST /inference/predict', 'predict', {
    summary: 'Predict for up to 100 SMILES now (counts 1 call against the monthly allowance)',
    body: Type.Ref(PredictRequest),
    response: ok(PredictResponse, 'A prediction per molecule, in input order'),
    handler: async ({ inference }, request, reply) => {
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
  }),
  route.idempotent('POST /inference/submit', 'submitInferenceRequest', {
    bodyLimit: REQUEST_BODY_LIMIT,
    summary: 'Predict for up to 100,000 SMILES or an uploaded set, asynchronously (counts ceil(molecules / 100) calls)',
    body: Type.Ref(InferenceSubmitRequest),
    response: { 200: RequestQueued('The prediction request is queued: its id') },
    handler: async ({ inference }, request) => inference.submit(principalOf(request), request.body as SubmitBody, pinReply(request, 200)),
  }),
  route('GET /inference/requests', 'listInferenceRequests', {
    summary: 'Your inference requests, newest first',
    querystring: UtilityRequestsQuery,
    response: ok(InferenceRequestList, 'A page of your asynchronous prediction requests'),
    handler: async ({ inference }, request) => inference.list(principalOf(request).userId, request.query),
  }),
  route('GET /inference/requests/:request_id', 'getInferenceRequest', {
    summary: 'A request: status, progress and counts',
    params: RequestIdParams,
    response: ok(InferenceRequest, "The request's status, progress and counts"),
    handler: async ({ inference }, request) => inference.get(principalOf(request).userId, request.params.request_id),
  }),
  route('GET /inference/requests/:request_id/result', 'getInferenceResult', {
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
    handler: async ({ inference }, request, reply) => {
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
  }),
  route('DELETE /inference/requests/:request_id', 'deleteInferenceRequest', {
    summary: 'Cancel a request that is still running, or delete a finished one with its predictions',
    params: RequestIdParams,
    response: { 200: RequestRemoved },
    handler: async ({ inference }, request) => inference.remove(principalOf(request).userId, request.params.request_id),
  }),
);
