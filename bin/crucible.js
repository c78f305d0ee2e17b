#!/usr/bin/env node
// Entry of the `crucible` command: compile on first use, then run dist/main.js. `serve` also
// builds the web console when needed (docs/console.md).
import { buildConsoleIfNeeded, buildIfNeeded } from '../scripts/build-if-needed.mjs';

buildIfNeeded();
if (process.argv[2] === 'serve') buildConsoleIfNeeded();
await import('../dist/main.js');
