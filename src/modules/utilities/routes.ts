// The utilities over HTTP (docs/utilities.md): the catalog, synchronous calls and
// asynchronous requests. Every call counts against the monthly allowance, never the wallet.
import { Type } from '@sinclair/typebox';
import { ok, routeFactory } from '../../api/declare-route.js';
import { routeSequence } from '../../api/module.js';
import { pinReply, principalOf } from '../../api/route.js';
import type { ToolRequest } from './service.js';
import {
  REQUEST_BODY_LIMIT,
  RequestQueued,
  RequestRemoved,
  UtilityCatalog,
  UtilityRequest,
  UtilityRequestList,
  UtilityRequestsQuery,
  UtilityRunRequest,
  UtilityRunResponse,
  UtilitySubmitRequest,
} from './schemas.js';

const RequestIdParams = Type.Object(
  { request_id: Type.String({ minLength: 1, maxLength: 100, description: 'The id POST /utilities/submit returned' }) },
  { additionalProperties: false },
);

const route = routeFactory({ tags: ['utilities'] });

export const utilityRoutes = routeSequence(
  route('GET /utilities', 'listUtilities', {
    summary: 'The utility tools: input schemas and limits',
    response: ok(UtilityCatalog, "The tools: each one's input schema and limits"),
    handler: async ({ utilities }) => utilities.catalog(),
  }),
  route.idempotent('POST /utilities/run', 'runUtility', {
    summary: 'Run a utility now (up to 100 molecules; counts 1 call against the monthly allowance)',
    body: Type.Ref(UtilityRunRequest),
    response: ok(UtilityRunResponse),
    // Without an Idempotency-Key there is nothing to pin: the call is counted on its own (UsageService.count).
    handler: async ({ utilities }, request) => utilities.run(principalOf(request), request.body as ToolRequest, request.idempotency ? pinReply(request, 200) : undefined),
  }),
  route.idempotent('POST /utilities/submit', 'submitUtilityRequest', {
    bodyLimit: REQUEST_BODY_LIMIT,
    summary: 'Submit a large utility request (up to 100,000 molecules or an uploaded set; counts ceil(molecules / 100) calls)',
    body: Type.Ref(UtilitySubmitRequest),
    response: { 200: RequestQueued('The utility request is queued: its id') },
    handler: async ({ utilities }, request) => utilities.submit(principalOf(request), request.body as ToolRequest, pinReply(request, 200)),
  }),
  route('GET /utilities/requests', 'listUtilityRequests', {
    summary: 'Your asynchronous utility requests, newest first',
    querystring: UtilityRequestsQuery,
    response: ok(UtilityRequestList, 'A page of your asynchronous utility requests'),
    handler: async ({ utilities }, request) => utilities.list(principalOf(request).userId, request.query),
  }),
  route('GET /utilities/requests/:request_id', 'getUtilityRequest', {
    summary: 'A request: status, progress and, once completed, its result (inline up to 1 MiB)',
    params: RequestIdParams,
    response: ok(UtilityRequest),
    handler: async ({ utilities }, request) => utilities.get(principalOf(request).userId, request.params.request_id),
  }),
  route('DELETE /utilities/requests/:request_id', 'deleteUtilityRequest', {
    summary: 'Cancel a request that is still running, or delete a finished one with its result',
    params: RequestIdParams,
    response: { 200: RequestRemoved },
    handler: async ({ utilities }, request) => utilities.remove(principalOf(request).userId, request.params.request_id),
  }),
);
