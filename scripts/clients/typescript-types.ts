// What the TypeScript SDK generates from the OpenAPI document (clients/typescript/README.md,
// "How it is made"): the document itself (clients/typescript/openapi.json), its types by
// openapi-typescript (src/generated/openapi.ts) and the operations that take an
// Idempotency-Key (src/generated/operations.ts, which the SDK's retries rely on). Used by
// scripts/clients/generate-typescript.ts, which writes them, and by
// test/clients/typescript-generated.test.ts, which fails when the committed files are stale.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { loadConfig } from '../../src/config.js';
import { openPglite } from '../../src/db/pglite.js';
import { buildApp } from '../../src/http/app.js';
import { closeServices, createServices } from '../../src/instance.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

export const SDK_ROOT = path.join(PACKAGE_ROOT, 'clients', 'typescript');

/** The generated files, relative to the SDK's root. */
export const GENERATED = {
  document: 'openapi.json',
  types: 'src/generated/openapi.ts',
  operations: 'src/generated/operations.ts',
} as const;

type Document = {
  info: { version: string };
  paths: Record<string, Record<string, { operationId?: string; parameters?: { in: string; name: string }[] }>>;
};

/** GET /openapi.json of an instance on an in-memory database, without a listening socket. */
export async function serveDocument(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-openapi-'));
  const services = await createServices(loadConfig({ LOG_LEVEL: 'silent', CRUCIBLE_DATA_DIR: dataDir }), await openPglite(null), { queue: false });
  try {
    const app = await buildApp(services, { logger: false });
    const r = await app.inject({ method: 'GET', url: '/openapi.json' });
    await app.close();
    if (r.statusCode !== 200) throw new Error(`GET /openapi.json answered ${r.statusCode}`);
    return r.body;
  } finally {
    await closeServices(services);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const BLOB = ts.factory.createTypeReferenceNode('Blob');

/** The three files from the document's text (as GET /openapi.json serves it). */
export async function generateFiles(documentText: string): Promise<Record<keyof typeof GENERATED, string>> {
  const doc = JSON.parse(documentText) as Document;
  // Fields with a default are optional in requests, as the server takes them
  // (docs/api-decisions.md, "The OpenAPI document"); binary bodies (uploads, downloads) are Blobs.
  const ast = await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0], {
    defaultNonNullable: false,
    transform(schema) {
      if ('format' in schema && schema.format === 'binary') return BLOB;
      return undefined;
    },
  });
  const idempotent: string[] = [];
  for (const [p, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops))
      if (op.parameters?.some((x) => x.in === 'header' && x.name.toLowerCase() === 'idempotency-key')) idempotent.push(`${method.toUpperCase()} ${p}`);
  const operations = [
    '// Generated from the OpenAPI document by scripts/clients/generate-typescript.ts: do not edit.',
    '',
    '/** The API version the types were generated from (info.version). */',
    `export const API_VERSION = ${JSON.stringify(doc.info.version)};`,
    '',
    '/** The operations that take an Idempotency-Key header ("METHOD /path/{param}"): writes the SDK keys and may retry. */',
    `export const IDEMPOTENT_OPERATIONS: readonly string[] = ${JSON.stringify(idempotent.sort(), null, 2).replace(/"/g, "'")};`,
    '',
  ].join('\n');
  return { document: `${JSON.stringify(doc, null, 2)}\n`, types: astToString(ast), operations };
}
