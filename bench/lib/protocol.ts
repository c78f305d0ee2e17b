// Messages between bench/auth.ts and its server child processes (over the IPC channel).
export interface ChildReady {
  type: 'ready';
  url: string;
  pid: number;
  db: 'pglite' | 'postgres' | null;
  /** The benchmark account (Crucible child only). */
  email?: string;
  password?: string;
}

export type ParentCommand =
  | { type: 'stop' }
  /** Start the V8 CPU profiler (the same profiler as `node --cpu-prof`, limited to the load window); the child answers { type: 'profile-started' }. */
  | { type: 'profile-start' }
  /** Stop it and write the .cpuprofile to `file`; the child answers { type: 'profile-written' }. */
  | { type: 'profile-stop'; file: string }
  /** The chemistry pool's counters and the main thread's event-loop use so far (Crucible child only); the child answers ChildStats. */
  | { type: 'stats' };

/** Cumulative figures of a Crucible child: difference two of them for a window. */
export interface ChildStats {
  type: 'stats';
  /** Main thread's event loop: active and idle ms. */
  eluActiveMs: number;
  eluIdleMs: number;
  /** Time the chemistry threads spent on items, ms; items and tasks run. */
  workerBusyMs: number;
  items: number;
  tasks: number;
}

export type ChildReply = { type: 'profile-started' } | { type: 'profile-written'; file: string } | ChildStats;
