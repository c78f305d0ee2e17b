// The utilities over HTTP (docs/utilities.md): the catalog, synchronous calls and
// asynchronous requests. Every call counts against the monthly allowance, never the wallet.
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import type { ToolRequest } from './service.js';
import { UtilityCatalog, UtilityRequest, UtilityRequestList, UtilityRequestsQuery, UtilityRunRequest, UtilityRunResponse, UtilitySubmitRequest } from './schemas.js';

/** An asynchronous request's body may hold up to 100,000 SMILES inline. */
const SUBMIT_BODY_LIMIT = 32 * 1024 * 1024;

const RequestIdParams = Type.Object(
  { request_id: Type.String({ minLength: 1, maxLength: 100, description: 'The id POST /utilities/submit returned' }) },
  { additionalProperties: false },
);

export const utilityRoutes: RoutePlugin = async (app, { services }) => {
  const { utilities } = services;
  const tags = ['utilities'];

  app.get(
    '/utilities',
    {
      schema: {
        operationId: 'listUtilities',
        tags,
        summary: 'The utility tools: input schemas and limits',
        response: { 200: Type.Ref(UtilityCatalog, { description: "The tools: each one's input schema and limits" }) },
      },
    },
    async () => utilities.catalog(),
  );

  app.post(
    '/utilities/run',
    {
      config: { idempotency: true },
      schema: {
        operationId: 'runUtility',
        tags,
        summary: 'Run a utility now (up to 100 molecules; counts 1 call against the monthly allowance)',
        body: Type.Ref(UtilityRunRequest),
        response: { 200: Type.Ref(UtilityRunResponse) },
      },
    },
    async (request) => {
      const idem = request.idempotency;
      return utilities.run(principalOf(request), request.body as ToolRequest, (tx, response) => idem?.saveInTx(tx, 200, response) ?? Promise.resolve());
    },
  );

  app.post(
    '/utilities/submit',
    {
      bodyLimit: SUBMIT_BODY_LIMIT,
      config: { idempotency: true },
      schema: {
        operationId: 'submitUtilityRequest',
        tags,
        summary: 'Submit a large utility request (up to 100,000 molecules or an uploaded set; counts ceil(molecules / 100) calls)',
        body: Type.Ref(UtilitySubmitRequest),
        response: { 200: Type.Object({ request_id: Type.String() }, { additionalProperties: false, description: 'The utility request is queued: its id' }) },
      },
    },
    async (request) => {
      const idem = request.idempotency;
      const id = await utilities.submit(
        principalOf(request),
        request.body as ToolRequest,
        (tx, requestId) => idem?.saveInTx(tx, 200, { request_id: requestId }) ?? Promise.resolve(),
      );
      return { request_id: id };
    },
  );

  app.get(
    '/utilities/requests',
    {
      schema: {
        operationId: 'listUtilityRequests',
        tags,
        summary: 'Your asynchronous utility requests, newest first',
        querystring: UtilityRequestsQuery,
        response: { 200: Type.Ref(UtilityRequestList, { description: 'A page of your asynchronous utility requests' }) },
      },
    },
    async (request) => utilities.list(principalOf(request).userId, request.query),
  );

  app.get(
    '/utilities/requests/:request_id',
    {
      schema: {
        operationId: 'getUtilityRequest',
        tags,
        summary: 'A request: status, progress and, once completed, its result (inline up to 1 MiB)',
        params: RequestIdParams,
        response: { 200: Type.Ref(UtilityRequest) },
      },
    },
    async (request) => utilities.get(principalOf(request).userId, request.params.request_id),
  );

  app.delete(
    '/utilities/requests/:request_id',
    {
      schema: {
        operationId: 'deleteUtilityRequest',
        tags,
        summary: 'Cancel a request that is still running, or delete a finished one with its result',
        params: RequestIdParams,
        response: {
          200: Type.Object(
            { request_id: Type.String(), status: Type.Union([Type.Literal('cancelled'), Type.Literal('deleted')]) },
            { additionalProperties: false, description: 'A running request is cancelled; an ended one is deleted with its result' },
          ),
        },
      },
    },
    async (request) => utilities.remove(principalOf(request).userId, request.params.request_id),
  );
};
