// Compiles src/ to dist/ when dist/ is missing or older than any source file, and builds the web
// console (web/ to web/dist, docs/console.md) the same way.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

/**
 * @param {string} dir
 * @returns {number} the latest mtime (ms) of the files under `dir`
 */
function newest(dir) {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

export function buildIfNeeded() {
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const sources = Math.max(newest(path.join(root, 'src')), fs.statSync(path.join(root, 'tsconfig.build.json')).mtimeMs, fs.statSync(path.join(root, 'package-lock.json')).mtimeMs);
  if (built >= sources) return false;
  process.stderr.write('crucible: compiling TypeScript (first run or sources changed)...\n');
  // tsc's messages go to stderr: stdout belongs to the command (`crucible mcp` speaks MCP on it).
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')], {
    stdio: ['ignore', 2, 2],
    cwd: root,
  });
  fs.writeFileSync(stamp, new Date().toISOString());
  return true;
}

const web = path.join(root, 'web');
const webStamp = path.join(web, 'dist', '.build-stamp');

/**
 * Builds the console with Vite when web/dist is missing or older than its sources. A failure is
 * reported and the server starts anyway: /app then says how to build the console.
 * @returns {boolean} whether it built
 */
export function buildConsoleIfNeeded() {
  if (!fs.existsSync(path.join(web, 'package.json'))) return false;
  const built = fs.existsSync(webStamp) ? fs.statSync(webStamp).mtimeMs : 0;
  const inputs = ['index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'].map((f) => path.join(web, f)).filter((f) => fs.existsSync(f));
  // The console bundles the TypeScript SDK from its sources (web/vite.config.ts).
  const sdk = path.join(root, 'clients', 'typescript', 'src');
  const sources = Math.max(
    newest(path.join(web, 'src')),
    fs.existsSync(sdk) ? newest(sdk) : 0,
    ...inputs.map((f) => fs.statSync(f).mtimeMs),
    fs.statSync(path.join(root, 'package-lock.json')).mtimeMs,
  );
  if (built >= sources) return false;
  process.stderr.write('crucible: building the web console (first run or sources changed)...\n');
  try {
    const vite = path.join(path.dirname(createRequire(path.join(web, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
    // Vite's messages go to stderr too (see above).
    execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { stdio: ['ignore', 2, 2], cwd: web });
    fs.writeFileSync(webStamp, new Date().toISOString());
    return true;
  } catch (err) {
    process.stderr.write(`crucible: the web console was not built (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); the API works without it\n`);
    return false;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  buildIfNeeded();
  buildConsoleIfNeeded();
}
