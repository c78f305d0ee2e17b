// `crucible serve` on the embedded database: each kind of start/stop cycle once, each clean and
// within the shutdown deadline, the data directory unlocked after each (exit-cycles.ts; the
// 50-cycle run is `npm run bench:exit`).
import { describe } from 'node:test';
import { serveCycles } from './exit-cycles.js';

describe('serve exits within the shutdown deadline after SIGTERM, every time [pglite]', () => serveCycles('pglite'));
