#!/usr/bin/env node
// Entry of the `crucible` command: compile on first use, then run dist/main.js.
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';

buildIfNeeded();
await import('../dist/main.js');
