// TensorFlow.js for the ML library: tfjs-core with the pure-JavaScript CPU backend (no native
// download, runs in worker threads; docs/architecture.md, "Machine learning"). Production mode
// skips tfjs's per-op debug checks and its console advice to install tfjs-node.
//
// Gradients: tfjs-core's Node build registers no gradient functions. tfjs documents
// `import '@tensorflow/tfjs-core/dist/register_all_gradients'`, an ES-module tree Node cannot
// load as published (extensionless imports, no "type": "module"), and says that importing
// @tensorflow/tfjs-layers does it; so the layers package (same version, no dependency besides
// tfjs-core) is imported here for that side effect only: it registers tfjs's own gradient of
// every kernel in tfjs-core's registry. Nothing else of it is used. These gradients serve the
// tfjs engine (dmpnn.ts, the reference); the fused engine (fused.ts) has its own backward pass.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-layers';
import { registerGraphKernels } from './kernels.js';

let ready: Promise<void> | null = null;

/** Selects the CPU backend, with the faster graph kernels of kernels.ts, once per thread. */
export function tfReady(): Promise<void> {
  ready ??= (async () => {
    tf.enableProdMode();
    await tf.setBackend('cpu');
    await tf.ready();
    registerGraphKernels();
    if (!tf.getGradient('UnsortedSegmentSum')) throw new Error('tfjs gradients are not registered');
  })();
  return ready;
}

export { tf };
