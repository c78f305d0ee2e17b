// RDKit MinimalLib (WebAssembly): the one place an instance is made, for every thread that uses
// one. The chemistry pool compiles the module once per process (compileRDKit) and each of its
// threads instantiates that module (loadRDKit(compiled)); code that runs wherever it is called
// (the D-MPNN's training and prediction in their worker threads, scripts, tests) takes the
// thread's own instance, loaded on first use (getRDKit). docs/chemistry-service.md describes
// the pool, docs/models.md the ML threads.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { MainModule } from '@rdkit/rdkit';
import { Wasm, type WasmImports, type WasmInstance, type WasmModule } from './wasm.js';

export type RDKitModule = MainModule;

type Factory = (opts?: unknown) => Promise<RDKitModule>;

const require = createRequire(import.meta.url);

/** RDKit's WebAssembly module compiled (once per process: the chemistry pool's threads share it). */
export async function compileRDKit(): Promise<WasmModule> {
  const bytes = await fs.promises.readFile(require.resolve('@rdkit/rdkit/RDKit_minimal.wasm'));
  return Wasm.compile(bytes);
}

/**
 * A new RDKit MinimalLib instance (it takes ~100-300 ms), instantiated from `compiled` when
 * given (no compile per thread, and the optimised code V8 produces is shared by every thread).
 */
export async function loadRDKit(compiled?: WasmModule | null): Promise<RDKitModule> {
  const factory = ((await import('@rdkit/rdkit')) as unknown as { default: Factory }).default;
  if (!compiled) return factory();
  return new Promise<RDKitModule>((resolve, reject) => {
    factory({
      // A failure to instantiate fails the load (the factory itself would wait for the instance forever).
      instantiateWasm(imports: WasmImports, receive: (instance: WasmInstance, module: WasmModule) => void) {
        Wasm.instantiate(compiled, imports)
          .then((instance) => receive(instance, compiled))
          .catch(reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

let threadInstance: Promise<RDKitModule> | null = null;

/** This thread's RDKit MinimalLib instance, loaded on first use (logging off: parse errors are results, not log lines). */
export function getRDKit(): Promise<RDKitModule> {
  threadInstance ??= loadRDKit().then((rdkit) => {
    rdkit.disable_logging();
    return rdkit;
  });
  return threadInstance;
}
