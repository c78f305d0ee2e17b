import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './paths.js';

let pkg: { version: string; license?: string } | null = null;
function readPackage(): { version: string; license?: string } {
  pkg ??= JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string; license?: string };
  return pkg;
}

export function readVersion(): string {
  return readPackage().version;
}

/** package.json's `license`: an SPDX identifier (Apache-2.0; LICENSE and NOTICE at the root). */
export function readLicense(): string {
  return readPackage().license ?? 'Apache-2.0';
}
