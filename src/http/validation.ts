// Request validation: Fastify's validator compiler over the shared validators of
// src/validation.ts (JSON bodies not type-coerced; query strings, path parameters and headers
// coerced), and Ajv errors for one request part as a 422 problem.
import type { ErrorObject } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { compileJsonValidator, compileTextValidator, validationIssues } from '../validation.js';
import { problemFromIssues, type ApiError } from './problems.js';

/**
 * Fastify's validator compiler. `eager` (crucible serve) compiles each route's validators when
 * the route is built, before the server listens; otherwise (an app built in a test file) on the
 * route's first request, so a process that builds the app compiles only what it uses.
 */
export function validatorCompiler(eager: boolean): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    const compile = () => (httpPart === 'body' ? compileJsonValidator(schema as object) : compileTextValidator(schema as object));
    let fn = eager ? compile() : null;
    return (data: unknown) => {
      fn ??= compile();
      return fn(data) ? { value: data } : { error: Object.assign(new Error('validation'), { validation: fn.errors ?? [] }) };
    };
  };
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Turns Ajv errors for one request part into a 422 problem. */
export function validationProblem(errors: ErrorObject[], context: string, data: unknown): ApiError {
  return problemFromIssues(validationIssues(errors, [PART_NAMES[context] ?? context], data));
}
