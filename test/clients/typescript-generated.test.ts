// The TypeScript SDK's generated files (clients/typescript/README.md, "How it is made") are those
// of the document this checkout serves: after a change to a route schema this test fails until
// `npm run clients:generate` is run and its output committed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { GENERATED, SDK_ROOT, generateFiles, serveDocument } from '../../scripts/clients/typescript-types.js';

describe("the TypeScript SDK's generated files", () => {
  it('are what npm run clients:generate writes from the routes now', async () => {
    const files = await generateFiles(await serveDocument());
    for (const [what, rel] of Object.entries(GENERATED)) {
      const committed = fs.readFileSync(path.join(SDK_ROOT, rel), 'utf8');
      assert.ok(committed === files[what as keyof typeof GENERATED], `clients/typescript/${rel} is stale: run npm run clients:generate and commit it`);
    }
  });

  it('key every operation the document says takes an Idempotency-Key, and only those', async () => {
    const doc = JSON.parse(fs.readFileSync(path.join(SDK_ROOT, GENERATED.document), 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const operations = fs.readFileSync(path.join(SDK_ROOT, GENERATED.operations), 'utf8');
    const keyed = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.parameters?.some((x) => x.in === 'header' && x.name === 'idempotency-key'))
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    // The 14 writes that take an Idempotency-Key (docs/api-decisions.md, "Idempotency") and
    // starting an Assistant turn.
    assert.equal(keyed.length, 15);
    for (const op of keyed) assert.ok(operations.includes(`'${op}'`), op);
    assert.equal(operations.match(/^ {2}'/gm)?.length, keyed.length);
  });
});
