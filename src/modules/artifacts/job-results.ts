// The job engine's view of artifacts: jobArtifactsFrom adapts an ArtifactService to the
// JobArtifacts port of src/compute/ports.ts (a job's result artifact, its rows, its molecules).
import type { Queryable } from '../../db/database.js';
import type { JobFile } from '../../compute/ports.js';
import { RESULT_PORT, RESULT_RECORD } from './names.js';
import type { ArtifactService } from './service.js';
import type { ArtifactPortInput } from './types.js';

/**
 * The artifact operations the job engine uses (structurally the JobArtifacts port of
 * src/compute/ports.ts): a job's output becomes one artifact whose port `result` holds one
 * record `result` (result.json, the document of GET /jobs/result), beside the job's own ports.
 */
export function jobArtifactsFrom(a: ArtifactService) {
  return {
    /**
     * Streams the output into the store (atomic: temp file, rename), then in ONE transaction
     * inserts the artifact row and runs `finish(tx, artifactId)`, the job's terminal
     * transition. When finish returns null (the attempt lost the job to a cancel or a sweep)
     * or throws, the transaction rolls back and this attempt's file is removed: no row, no
     * file, and no other attempt's artifact is touched. Returns finish's value.
     */
    async writeResult<T>(o: {
      userId: string;
      jobId: string;
      jobType: string;
      output: { result: unknown; ports?: Record<string, ArtifactPortInput>; warnings?: unknown[] };
      finish: (tx: Queryable, artifactId: string) => Promise<T | null>;
    }): Promise<T | null> {
      if (o.output.ports && Object.prototype.hasOwnProperty.call(o.output.ports, RESULT_PORT)) throw new Error(`job output ports must not be named "${RESULT_PORT}"`);
      let finished: T | null = null;
      try {
        await a.createFromRecords({
          userId: o.userId,
          jobId: o.jobId,
          jobType: o.jobType,
          ports: {
            [RESULT_PORT]: {
              format: 'json',
              kind: 'result',
              records: [{ id: RESULT_RECORD, files: { primary: { name: 'result.json', content: JSON.stringify(o.output.result ?? null), contentType: 'application/json' } } }],
            },
            ...(o.output.ports ?? {}),
          },
          warnings: o.output.warnings,
          inTx: async (tx, artifactId) => {
            finished = await o.finish(tx, artifactId);
            if (finished === null) throw new LostJob();
          },
        });
      } catch (err) {
        if (err instanceof LostJob) return null;
        throw err;
      }
      return finished;
    },
    readResult: (userId: string, artifactId: string): Promise<unknown> => a.readPrimaryJson(userId, artifactId, RESULT_PORT, RESULT_RECORD),
    deleteRowsForJob: (tx: Queryable, userId: string, jobId: string): Promise<string[]> => a.deleteRowsForJob(tx, userId, jobId),
    removeObjects: (keys: string[]): Promise<void> => a.removeObjects(keys),
    countMolecules: (userId: string, artifactId: string, port?: string) => a.countMolecules(userId, artifactId, port),
    readMolecules: (userId: string, artifactId: string, port?: string) => a.readMolecules(userId, artifactId, port),
    /** The artifact's file (its `file` record, else its first record): its size, and its bytes (a stream) when at most maxBytes. */
    async readFile(userId: string, artifactId: string, maxBytes: number): Promise<JobFile> {
      const art = await a.get(userId, artifactId);
      // An upload's `file`; a job's result artifact: its port of kind `receptor` (a PDB file:
      // receptor_prepare's, docking's), else its first own port by name other than the logs,
      // result.json only when it has no other (the stored manifest keeps no key order).
      const ports = art.manifest.ports;
      const names = Object.keys(ports).sort();
      const port = ports.file ? 'file' : (names.find((n) => ports[n]?.kind === 'receptor') ?? names.find((n) => n !== RESULT_PORT && ports[n]?.kind !== 'logs') ?? names[0]);
      const record = port ? art.manifest.ports[port]?.records[0] : undefined;
      if (!port || !record) return { name: art.name, size: 0, content: (async function* () {})() };
      const dl = await a.download(userId, artifactId, { port, record: record.id });
      if (dl.size > maxBytes) {
        dl.close();
        return { name: dl.filename, size: dl.size, content: null };
      }
      return { name: dl.filename, size: dl.size, content: (await dl.open()) as AsyncIterable<Uint8Array> };
    },
  };
}

/** Rolls back a result write whose job was no longer the writer's to finish. */
class LostJob extends Error {
  constructor() {
    super("the job was no longer this attempt's to finish");
  }
}
