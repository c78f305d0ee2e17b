// How the tests start `crucible <command>` as a process of its own: from dist/ when `npm test`
// compiled it for this run (CRUCIBLE_TEST_CLI=dist, as `npm start` runs it), else from the
// sources through tsx. A process started from dist/ skips compiling TypeScript at every start,
// in its worker threads too (README.md, "Test it").
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST_MAIN = path.join(ROOT, 'dist', 'main.js');
const fromDist = process.env.CRUCIBLE_TEST_CLI === 'dist' && fs.existsSync(DIST_MAIN);

/** Node's arguments that run `crucible <args>`. */
export function crucibleArgv(args: string[]): string[] {
  return fromDist ? [DIST_MAIN, ...args] : ['--import', 'tsx', path.join(ROOT, 'src', 'main.ts'), ...args];
}
