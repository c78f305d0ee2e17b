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
  | { type: 'profile-stop'; file: string };

export type ChildReply = { type: 'profile-started' } | { type: 'profile-written'; file: string };
