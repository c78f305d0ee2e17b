// Compiles src/ to dist/ when dist/ is missing or older than any source file.
import { execFileSync } from 'node:child_process';
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

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) buildIfNeeded();
