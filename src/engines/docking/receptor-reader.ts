// Reading receptor files off the event loop (docs/reliability.md, "No request stalls the
// server"; docs/engines.md, "Docking"): decoding, hashing, parsing and filtering a PDB file, and
// checking a box against its atoms, is linear in its size, 1 to 2 s for the largest receptor
// accepted (50 MB) on a loaded machine, so estimate, submit and the job's run hand the file to
// one reader thread (receptor-thread.ts) and await its answer. The thread starts on first use,
// serves one request after the other, and ends after a minute without work; it never holds the
// process open. A file goes over as the storage streams it (its bytes, in pieces of at most
// 1 MB, with a turn of the event loop every few MB), never as one string: building a 50 MB
// string took 100 to 250 ms in one piece. A thread that dies fails its requests (a 500, never
// a hang), and the next request starts a new one.
import { setImmediate as turn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { RUNNING_FROM_SOURCE, siblingModule } from '../../paths.js';
import { ReceptorProblem, type Box } from './receptor.js';
import type { ReaderAnswer, ReaderOp, ReaderRequest, ReceptorAnswer, ReceptorOp } from './receptor-thread.js';

/** The largest piece posted at once (a copy), and how much is posted between turns of the event loop. */
const PIECE = 1 << 20;
const PER_TURN = 4 << 20;
const IDLE_MS = 60_000;
/** Reading 50 MB takes a few hundred MB; a file that needs more fails its request, not the server. */
const HEAP_MB = 2048;

/** A file: its text (a lookup's answer), or its bytes as storage streams them. */
export type FileSource = string | AsyncIterable<Uint8Array>;

/** The job threads' entry (src/compute/threads.ts), from sources through tsx: a file it starts, not an import. */
const ENTRY = RUNNING_FROM_SOURCE
  ? new URL('../../compute/thread-tsx.mjs', import.meta.url)
  : siblingModule(new URL('../../compute/threads.js', import.meta.url).href, 'thread-entry');
const MODULE = siblingModule(import.meta.url, 'receptor-thread');

class ReaderThread {
  readonly worker: Worker;
  readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly onEnd: (t: ReaderThread) => void) {
    this.worker = new Worker(ENTRY, { workerData: { module: MODULE.href, input: null }, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    this.worker.on('message', (m: ReaderAnswer | { kind: 'failed'; message: string }) => {
      if ('kind' in m) return this.end(new Error(`the receptor reader could not start: ${m.message}`));
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(m.problem ? new ReceptorProblem(m.message) : new Error(`the receptor reader failed: ${m.message}`));
      this.schedule();
    });
    this.worker.on('error', (err) => this.end(err));
    this.worker.on('exit', (code) => this.end(new Error(`the receptor reader's thread exited (code ${code})`)));
    // Referenced only while a request is pending (request, schedule), and unreferenced after the
    // listeners (adding a 'message' listener refs the thread again): an idle reader kept its
    // process alive for IDLE_MS (a test file's process a minute after its tests).
    this.worker.unref();
  }

  schedule(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.pending.size) return;
    this.worker.unref();
    this.idle = setTimeout(() => this.end(null), IDLE_MS);
    this.idle.unref();
  }

  /** Fails what is pending (with `err`) and lets the thread go. */
  end(err: Error | null): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.onEnd(this);
    for (const p of this.pending.values()) p.reject(err ?? new Error('the receptor reader ended'));
    this.pending.clear();
    void this.worker.terminate();
  }

  async request(source: FileSource, req: ReaderOp, id: number): Promise<unknown> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.worker.ref();
    answer.catch(() => undefined); // awaited below; a failure while posting must not go unhandled
    let sent = 0;
    /** Posts a piece; false once the thread has ended (the answer is its error). */
    const post = async (piece: Uint8Array | string): Promise<boolean> => {
      if (!this.pending.has(id)) return false;
      this.worker.postMessage({ id, piece } satisfies ReaderRequest);
      sent += piece.length;
      if (sent >= PER_TURN) {
        sent = 0;
        await turn();
      }
      return true;
    };
    try {
      if (typeof source === 'string') {
        for (let at = 0; at < source.length; at += PIECE) if (!(await post(source.slice(at, at + PIECE)))) break;
      } else outer: for await (const chunk of source) for (let at = 0; at < chunk.length; at += PIECE) if (!(await post(chunk.subarray(at, at + PIECE)))) break outer;
    } catch (err) {
      // The file could not be read to its end: the thread forgets its pieces, the caller gets the error.
      if (this.pending.delete(id)) this.worker.postMessage({ id, drop: true } satisfies ReaderRequest);
      this.schedule();
      throw err;
    }
    if (this.pending.has(id)) this.worker.postMessage({ id, ...req } satisfies ReaderRequest);
    return answer;
  }
}

let thread: ReaderThread | null = null;
let nextId = 1;

function reader(): ReaderThread {
  thread ??= new ReaderThread((t) => {
    if (thread === t) thread = null;
  });
  return thread;
}

/**
 * A receptor file read off the event loop: its SHA-256 and summary (readReceptor), with
 * `preparation` the text Open Babel prepares written to that file, and the box (given, or around `site`) checked
 * against its atoms. Rejects with ReceptorProblem for a file that is not a protein structure in
 * the PDB format.
 */
export async function readReceptorOffLoop(source: FileSource, o: Omit<ReceptorOp, 'op'>): Promise<ReceptorAnswer> {
  return (await reader().request(source, { op: 'receptor', ...o }, nextId++)) as ReceptorAnswer;
}

/** A reference ligand's box (its extent plus padding), or its problem, read off the event loop. */
export async function referenceBoxOffLoop(source: FileSource, padding: number): Promise<Box | string> {
  return (await reader().request(source, { op: 'reference', padding }, nextId++)) as Box | string;
}

/** Ends the reader's thread now (tests; it also ends by itself when idle). */
export function stopReceptorReader(): void {
  thread?.end(null);
}
