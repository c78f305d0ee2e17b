// Child process: the S3 stand-in of the tests (s3rver on loopback, test/helpers/s3-stand-in.ts)
// in a process of its own, so its work is not counted on the benchmark client's event loop.
// Tells the parent where it listens over IPC and stops when asked.
import { startS3StandIn } from '../../test/helpers/s3-stand-in.js';

const s3 = await startS3StandIn();
process.send!({ type: 's3-ready', endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
process.on('message', (msg: { type?: string }) => {
  if (msg.type !== 'stop') return;
  void s3.close().finally(() => process.exit(0));
});
