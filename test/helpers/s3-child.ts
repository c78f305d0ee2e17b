// Child process: the S3 stand-in (s3-stand-in.ts) in a process of its own, started by
// startS3StandInProcess, so that its work and memory are not counted in the parent (memory
// measurements, benchmarks). Tells the parent where it listens over IPC; stops when asked.
import { startS3StandIn } from './s3-stand-in.js';

const s3 = await startS3StandIn();
const ready = {
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: s3.region,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
  forcePathStyle: s3.forcePathStyle,
  directory: s3.directory,
};
process.send!({ type: 's3-ready', ...ready });
process.on('message', (msg: { type?: string }) => {
  if (msg.type !== 'stop') return;
  void s3.close().finally(() => process.exit(0));
});
