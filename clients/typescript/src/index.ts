// crucible-client: the TypeScript SDK of the Crucible API (README.md).
export { Crucible, idempotencyKey, type Api, type Args, type CrucibleOptions, type Data, type DownloadOptions, type InitOf, type Method, type PathOf, type UploadOptions } from './client.js';
export { ProblemError, WaitTimeoutError, hintForStatus, isProblemError, type Problem, type RetryHint, type ValidationIssue } from './errors.js';
export type { components, operations, paths } from './generated/openapi.js';
export { API_VERSION, IDEMPOTENT_OPERATIONS } from './generated/operations.js';
export type { EventsQuery } from './pages.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export type { TokenResponse } from './session.js';
export type { AssistantStreamEvent, StreamOptions } from './stream.js';
export type { WaitOptions } from './waits.js';
