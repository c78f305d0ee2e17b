// `crucible serve` on the embedded database: 50 start/stop cycles, each clean and within the
// shutdown deadline, the data directory unlocked after each (exit-cycles.ts).
import { describe } from 'node:test';
import { serveCycles } from './exit-cycles.js';

describe('serve exits within the shutdown deadline after SIGTERM, every time [pglite]', () => serveCycles('pglite'));
