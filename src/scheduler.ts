// The one owner of periodic background work in a process: retention, the artifact sweep, the
// events purge and the job sweep are tasks registered here (by their modules' `tasks` and by
// the job runtime), each run at its interval, never overlapping itself, with failures logged
// and retried at the next run. Stopping waits for the runs in progress. Work that must happen
// once across instances takes its advisory lock from src/db/locks.ts inside `run`.

export interface PeriodicTask {
  name: string;
  everyMs: number;
  /** Delay before the first run (default: one interval). */
  firstDelayMs?: number;
  run(): Promise<unknown>;
}

interface Logger {
  error(obj: object, msg: string): void;
}

interface Entry {
  task: PeriodicTask;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
}

export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private stopped = false;

  constructor(private readonly log: Logger) {}

  /** Registers and starts a task (a task of the same name is replaced). */
  add(task: PeriodicTask): void {
    if (this.stopped) return;
    this.remove(task.name);
    const e: Entry = { task, timer: null, running: null };
    this.entries.set(task.name, e);
    this.arm(e, task.firstDelayMs ?? task.everyMs);
  }

  /** Stops a task's timer; a run in progress finishes on its own. */
  remove(name: string): void {
    const e = this.entries.get(name);
    if (!e) return;
    if (e.timer) clearTimeout(e.timer);
    this.entries.delete(name);
  }

  get names(): string[] {
    return [...this.entries.keys()];
  }

  private arm(e: Entry, delayMs: number): void {
    // Timers never keep the process alive: shutdown does not wait for the next run.
    e.timer = setTimeout(() => {
      e.timer = null;
      e.running = e.task
        .run()
        .then(
          () => undefined,
          (err: unknown) => this.log.error({ err, task: e.task.name }, `${e.task.name} failed`),
        )
        .finally(() => {
          e.running = null;
          if (!this.stopped && this.entries.get(e.task.name) === e) this.arm(e, e.task.everyMs);
        });
    }, delayMs).unref();
  }

  /** Stops every timer and waits for runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    const running: Promise<void>[] = [];
    for (const e of this.entries.values()) {
      if (e.timer) clearTimeout(e.timer);
      if (e.running) running.push(e.running);
    }
    this.entries.clear();
    await Promise.all(running);
  }
}
