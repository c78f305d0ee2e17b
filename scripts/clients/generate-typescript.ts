// `npm run clients:generate`: writes the TypeScript SDK's generated files from the OpenAPI
// document this checkout serves (clients/typescript/README.md, "How it is made"). Run it after a
// change to a route schema; test/clients/typescript-generated.test.ts fails until then.
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED, SDK_ROOT, generateFiles, serveDocument } from './typescript-types.js';

const files = await generateFiles(await serveDocument());
for (const [what, rel] of Object.entries(GENERATED)) {
  const file = path.join(SDK_ROOT, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, files[what as keyof typeof GENERATED]);
  console.log(`wrote clients/typescript/${rel}`);
}
