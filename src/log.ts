// Where log lines go: stdout, through process.stdout, so that logging can never block the
// process or its exit.
//
// pino's default destination (sonic-boom, asynchronous) registers an 'exit' hook that writes
// what is still buffered with fs.writeSync, and sonic-boom 4's flushSync retries every error
// that is not EAGAIN (EPIPE included) after a 100 ms sleep, forever: a line queued behind a
// write in flight when process.exit runs, with the reader of stdout gone (a process manager
// stopped with its process group), kept the process spinning in that hook for good (issue 16).
// A reader that is there but never reads (EAGAIN) did the same.
//
// process.stdout on a pipe or socket is a libuv stream: a write is tried at once and what the
// reader does not take is queued in memory, never blocking a thread. Here the queue is bounded
// (lines beyond it are dropped and counted), a write error (EPIPE) ends logging, and nothing is
// flushed at exit: serve/worker wait a bounded time for the queue to drain before they exit
// (flushLogs). On a file or a terminal Node writes synchronously, as before.
import type { DestinationStream } from 'pino';

/** Bytes queued for a slow reader of stdout before log lines are dropped. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

class StdoutDestination implements DestinationStream {
  private broken = false;
  private dropped = 0;
  private listening = false;

  write(line: string): void {
    const out = process.stdout;
    if (!this.listening) {
      this.listening = true;
      // Without a listener a failed write (EPIPE) is an uncaught exception.
      out.on('error', () => (this.broken = true));
      process.stderr.on('error', () => undefined);
    }
    if (this.broken || out.destroyed) return;
    if (out.writableLength > MAX_QUEUED_BYTES) {
      this.dropped++;
      return;
    }
    if (this.dropped) {
      out.write(JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, dropped: this.dropped, msg: 'log lines dropped: stdout was not read' }) + '\n');
      this.dropped = 0;
    }
    out.write(line);
  }
}

let destination: StdoutDestination | null = null;

/** The one destination of every logger of the process (Fastify's and the background ones). */
export function logDestination(): DestinationStream {
  return (destination ??= new StdoutDestination());
}

/** Resolves once what was written to stdout has been taken by its reader, or after `ms`. */
export function flushLogs(ms: number): Promise<void> {
  const out = process.stdout;
  if (out.destroyed || out.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    out.once('drain', done);
    out.once('close', done);
  });
}
