import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './paths.js';

let version: string | null = null;
export function readVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
