// Workflow definitions over HTTP (docs/workflows.md): validate, estimate, templates, save,
// versions, delete and restore, fork, share. Runs are run-routes.ts.
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import { MAX_SPEC_BYTES } from '../../workflows/spec.js';
import { TEMPLATES } from '../../workflows/templates.js';
import { estimatedSpec, estimateFor, validateFor } from './check.js';
import {
  EstimateRequest,
  ForkRequest,
  ListWorkflowsQuery,
  RestoreRequest,
  ShareRequest,
  ValidateRequest,
  VersionQuery,
  WorkflowDefinition,
  WorkflowEstimate,
  WorkflowList,
  WorkflowSaveRequest,
  WorkflowShare,
  WorkflowShares,
  WorkflowTemplates,
  WorkflowUpdateRequest,
  WorkflowValidation,
  WorkflowVersions,
} from './schemas.js';

/** A request carrying a spec may be the spec's 256 KiB plus its envelope; past that, 413. */
export const SPEC_BODY_LIMIT = MAX_SPEC_BYTES + 1024;
const tags = ['workflows'];
const WorkflowIdParams = Type.Object({ workflow_id: Type.String({ maxLength: 100 }) });
const deleted = (description: string) => ({ 200: Type.Ref('MessageResponse', { description }) });

export const definitionRoutes: RoutePlugin = async (app, { services }) => {
  const defs = services.workflowDefinitions;
  app.post(
    '/workflows/validate',
    {
      bodyLimit: SPEC_BODY_LIMIT,
      config: { scope: 'read' },
      schema: {
        operationId: 'validateWorkflow',
        tags: ['workflows'],
        summary: 'Validate a workflow spec (charges nothing): every problem with its location, and an order of the steps',
        body: Type.Ref(ValidateRequest),
        response: { 200: Type.Ref(WorkflowValidation, { description: 'The verdict: every error and warning located in the spec, and a step order' }) },
      },
    },
    async (request) => validateFor(services, principalOf(request).userId, (request.body as { spec: unknown }).spec),
  );

  app.post(
    '/workflows/estimate',
    {
      bodyLimit: SPEC_BODY_LIMIT,
      config: { scope: 'read' },
      schema: {
        operationId: 'estimateWorkflow',
        tags: ['workflows'],
        summary:
          'Estimate a workflow run of a spec or a built-in template (charges nothing): total and per-step cost and runtime, with the run\u2019s inputs if given; 422 with every problem of an invalid spec',
        body: Type.Ref(EstimateRequest),
        response: { 200: Type.Ref(WorkflowEstimate, { description: "The run's cost and runtime, per step and in total" }) },
      },
    },
    async (request) => {
      const body = request.body as { spec?: unknown; template_id?: string; inputs?: Record<string, unknown> };
      return estimateFor(services, principalOf(request).userId, estimatedSpec(body), body.inputs);
    },
  );

  app.get(
    '/workflows/templates',
    {
      schema: {
        operationId: 'listWorkflowTemplates',
        tags,
        summary: 'Built-in templates: runnable specs (run with template_id, or fork into a definition)',
        response: { 200: Type.Ref(WorkflowTemplates, { description: 'The built-in templates with their specs' }) },
      },
    },
    async () => ({ templates: TEMPLATES.map((t) => ({ ...t })) }),
  );

  app.post(
    '/workflows',
    {
      bodyLimit: SPEC_BODY_LIMIT,
      config: { idempotency: true },
      schema: {
        operationId: 'createWorkflow',
        tags,
        summary: 'Save a definition (version 1); 422 with every problem of an invalid spec',
        body: Type.Ref(WorkflowSaveRequest),
        response: { 201: Type.Ref(WorkflowDefinition, { description: 'The saved definition (version 1)' }) },
      },
    },
    async (request, reply) => {
      const idem = request.idempotency;
      const v = await defs.create(principalOf(request).userId, request.body, (tx, view) => idem?.saveInTx(tx, 201, view) ?? Promise.resolve());
      return reply.code(201).send(v);
    },
  );

  app.get(
    '/workflows',
    {
      schema: {
        operationId: 'listWorkflows',
        tags,
        summary: 'Your definitions and those shared with you (or, with deleted=true, your deleted ones)',
        querystring: ListWorkflowsQuery,
        response: { 200: Type.Ref(WorkflowList, { description: 'A page of the definitions you own or that are shared with you' }) },
      },
    },
    async (request) => defs.list(principalOf(request).userId, request.query),
  );

  app.get(
    '/workflows/shared/:share_token',
    {
      schema: {
        operationId: 'getSharedWorkflow',
        tags,
        summary: 'A definition shared by link (any signed-in holder of the token)',
        params: Type.Object({ share_token: Type.String({ maxLength: 200 }) }),
        response: { 200: Type.Ref(WorkflowDefinition, { description: 'The definition shared by the link' }) },
      },
    },
    async (request) => (await defs.byToken(request.params.share_token)).view,
  );

  app.get(
    '/workflows/:workflow_id',
    {
      schema: {
        operationId: 'getWorkflow',
        tags,
        summary: 'A definition: its latest version, or ?version=N',
        params: WorkflowIdParams,
        querystring: VersionQuery,
        response: { 200: Type.Ref(WorkflowDefinition, { description: 'The definition (its latest version, or the one asked for)' }) },
      },
    },
    async (request) => defs.read(principalOf(request).userId, request.params.workflow_id, request.query.version),
  );

  app.put(
    '/workflows/:workflow_id',
    {
      bodyLimit: SPEC_BODY_LIMIT,
      schema: {
        operationId: 'updateWorkflow',
        tags,
        summary: 'Save a new version; base_version must be the latest (else 409 version-conflict)',
        params: WorkflowIdParams,
        body: Type.Ref(WorkflowUpdateRequest),
        response: { 200: Type.Ref(WorkflowDefinition, { description: 'The definition at its new version' }) },
      },
    },
    async (request) => defs.update(principalOf(request).userId, request.params.workflow_id, request.body),
  );

  app.delete(
    '/workflows/:workflow_id',
    {
      schema: {
        operationId: 'deleteWorkflow',
        tags,
        summary: 'Delete a definition (restorable for 30 days)',
        params: WorkflowIdParams,
        response: deleted('The definition is deleted (restorable for 30 days)'),
      },
    },
    async (request) => {
      await defs.delete(principalOf(request).userId, request.params.workflow_id);
      return { message: `workflow ${request.params.workflow_id} deleted; restorable for 30 days` };
    },
  );

  app.post(
    '/workflows/:workflow_id/restore',
    {
      config: { idempotency: true },
      schema: {
        operationId: 'restoreWorkflow',
        tags,
        summary: 'Undelete a definition, or with {version} make an old version the latest (as a new version)',
        params: WorkflowIdParams,
        body: Type.Ref(RestoreRequest),
        response: { 200: Type.Ref(WorkflowDefinition, { description: 'The definition, undeleted or at a new version copied from the old one' }) },
      },
    },
    async (request) => {
      const idem = request.idempotency;
      return defs.restore(principalOf(request).userId, request.params.workflow_id, request.body ?? {}, (tx, v) => idem?.saveInTx(tx, 200, v) ?? Promise.resolve());
    },
  );

  app.post(
    '/workflows/:workflow_id/fork',
    {
      config: { idempotency: true },
      schema: {
        operationId: 'forkWorkflow',
        tags,
        summary: 'Copy a definition (yours, shared with you, or a template by its template_id) into a new one of yours',
        params: WorkflowIdParams,
        body: Type.Ref(ForkRequest),
        response: { 201: Type.Ref(WorkflowDefinition, { description: 'The new definition, forked from the source' }) },
      },
    },
    async (request, reply) => {
      const idem = request.idempotency;
      const v = await defs.fork(principalOf(request).userId, request.params.workflow_id, request.body ?? {}, (tx, view) => idem?.saveInTx(tx, 201, view) ?? Promise.resolve());
      return reply.code(201).send(v);
    },
  );

  app.get(
    '/workflows/:workflow_id/versions',
    {
      schema: {
        operationId: 'listWorkflowVersions',
        tags,
        summary: 'Version history, newest first',
        params: WorkflowIdParams,
        response: { 200: Type.Ref(WorkflowVersions, { description: 'The version history' }) },
      },
    },
    async (request) => defs.versions(principalOf(request).userId, request.params.workflow_id),
  );

  app.post(
    '/workflows/:workflow_id/share',
    {
      config: { idempotency: true },
      schema: {
        operationId: 'shareWorkflow',
        tags,
        summary: 'Share with a user by email (view or run), or create a link token (shown once)',
        params: WorkflowIdParams,
        body: Type.Ref(ShareRequest),
        response: { 201: Type.Ref(WorkflowShare, { description: 'The share (a link share carries its token, shown this once)' }) },
      },
    },
    async (request, reply) => {
      const idem = request.idempotency;
      // A replay answers the share without its token: the token is shown once.
      const v = await defs.share(principalOf(request).userId, request.params.workflow_id, request.body, (tx, share) => {
        const { token: _token, url: _url, ...kept } = share;
        return idem?.saveInTx(tx, 201, kept, { redacted: true }) ?? Promise.resolve();
      });
      return reply.code(201).send(v);
    },
  );

  app.get(
    '/workflows/:workflow_id/shares',
    {
      schema: {
        operationId: 'listWorkflowShares',
        tags,
        summary: "A definition's active shares (owner only)",
        params: WorkflowIdParams,
        response: { 200: Type.Ref(WorkflowShares, { description: 'The shares of the definition' }) },
      },
    },
    async (request) => defs.shares(principalOf(request).userId, request.params.workflow_id),
  );

  app.delete(
    '/workflows/:workflow_id/shares/:share_id',
    {
      schema: {
        operationId: 'revokeWorkflowShare',
        tags,
        summary: 'Revoke a share at once',
        params: Type.Object({ workflow_id: Type.String({ maxLength: 100 }), share_id: Type.String({ maxLength: 100 }) }),
        response: deleted('The share is revoked at once'),
      },
    },
    async (request) => {
      await defs.revoke(principalOf(request).userId, request.params.workflow_id, request.params.share_id);
      return { message: `share ${request.params.share_id} revoked` };
    },
  );
};
