// Request validation: Fastify's validator compiler over the shared validators of
// src/validation.ts (JSON bodies not type-coerced; query strings, path parameters and headers
// coerced), and Ajv errors for one request part as a 422 problem.
import type { ErrorObject } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { compileJsonValidator, compileTextValidator, validationIssues } from '../validation.js';
import { problemFromIssues, type ApiError } from './problems.js';

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const fn = httpPart === 'body' ? compileJsonValidator(schema as object) : compileTextValidator(schema as object);
  return (data: unknown) => (fn(data) ? { value: data } : { error: Object.assign(new Error('validation'), { validation: fn.errors ?? [] }) });
};

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Turns Ajv errors for one request part into a 422 problem. */
export function validationProblem(errors: ErrorObject[], context: string, data: unknown): ApiError {
  return problemFromIssues(validationIssues(errors, [PART_NAMES[context] ?? context], data));
}
