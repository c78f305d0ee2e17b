// The receptor reader's thread (receptor-reader.ts): decodes, hashes and parses receptor files,
// makes the text Open Babel prepares, finds the box (around a site or "its ligand") and checks
// that it holds receptor atoms, and reads reference ligands' boxes: everything that is linear in
// a file's size, off the event loop. Started through the job threads' entry
// (src/compute/threads.ts: thread-entry runs this module's default export), it serves requests
// until it is terminated. A request's file arrives in pieces (`{id, piece}`: UTF-8 bytes or text),
// then the request itself (`{id, op, ...}`); the answer is small (the text for Open Babel is
// written to the job's directory here: 50 MB arriving on the event loop cost it a long
// garbage collection).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { TextDecoder } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { boxMissing, referenceBox, siteBox } from './box.js';
import { preparationInput, readReceptor, ReceptorProblem, type Box, type ReceptorSummary } from './receptor.js';

export interface ReceptorOp {
  op: 'receptor';
  keep: string[];
  /** Where to write the text Open Babel prepares (at run; it never crosses to the event loop). */
  preparation: string | null;
  /** The box given (or around a reference ligand), checked against the receptor's atoms. */
  box: Box | null;
  /** A hetero group's residue name, or "ligand", to put the box around instead. */
  site: string | null;
  padding: number;
}
export type ReaderOp = ReceptorOp | { op: 'reference'; padding: number };
export type ReaderRequest = { id: number; piece: Uint8Array | string } | { id: number; drop: true } | ({ id: number } & ReaderOp);

export interface ReceptorAnswer {
  sha256: string;
  info: ReceptorSummary;
  /** The box: the one given, or around the site (null when the site has none: siteProblem says why). */
  box: Box | null;
  /** The residue name the box is around. */
  site: string | null;
  siteProblem: string | null;
  /** Why the box holds no receptor atom, or null. */
  miss: string | null;
}

export type ReaderAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; problem: boolean; message: string };

function receptor(text: string, o: ReceptorOp): ReceptorAnswer {
  const sha256 = crypto.createHash('sha256').update(text).digest('hex');
  const info = readReceptor(text, o.keep);
  if (o.preparation !== null) fs.writeFileSync(o.preparation, preparationInput(info));
  let box = o.box;
  let site: string | null = null;
  let siteProblem: string | null = null;
  if (o.site !== null) {
    const b = siteBox(info, o.site, o.padding);
    if (typeof b === 'string') siteProblem = b;
    else ({ box, site } = b);
  }
  const summary: ReceptorSummary = {
    atoms: info.atoms,
    hydrogens: info.hydrogens,
    residues: info.residues,
    removed: info.removed,
    kept: info.kept,
    removedGroups: info.removedGroups,
  };
  return { sha256, info: summary, box, site, siteProblem, miss: box ? boxMissing(box, info.coords) : null };
}

/**
 * Lets the event loop's thread go first: on Linux a thread has a nice value of its own
 * (setpriority on its thread id), so the reader's CPU work waits while the event loop has work.
 * Elsewhere nothing changes.
 */
function lowerPriority(): void {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0) os.setPriority(tid, 10);
  } catch {
    /* not Linux, or not allowed: the thread keeps its priority */
  }
}

/** Serves requests until the thread is terminated (a ThreadWork that never returns). */
export default function serve(): Promise<never> {
  const port = parentPort!;
  lowerPriority();
  const files = new Map<number, { decoder: TextDecoder; parts: string[] }>();
  port.on('message', (m: ReaderRequest) => {
    if ('piece' in m) {
      const f = files.get(m.id) ?? { decoder: new TextDecoder('utf-8', { ignoreBOM: true }), parts: [] };
      f.parts.push(typeof m.piece === 'string' ? m.piece : f.decoder.decode(m.piece, { stream: true }));
      files.set(m.id, f);
      return;
    }
    const f = files.get(m.id);
    files.delete(m.id);
    if ('drop' in m) return;
    const text = f ? f.parts.join('') + f.decoder.decode() : '';
    try {
      if (m.op === 'receptor') port.postMessage({ id: m.id, ok: true, value: receptor(text, m) } satisfies ReaderAnswer);
      else port.postMessage({ id: m.id, ok: true, value: referenceBox(text, m.padding) } satisfies ReaderAnswer);
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({ id: m.id, ok: false, problem: err instanceof ReceptorProblem, message: e.message } satisfies ReaderAnswer);
    }
  });
  return new Promise<never>(() => undefined);
}
