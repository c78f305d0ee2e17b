// RDKit MinimalLib for the ML library: one instance per thread, loaded on first use. Training
// and prediction run wherever they are called (a worker thread of the job runtime, a script,
// a test); each such thread loads its own instance here, apart from the chemistry pool's.
import type { MainModule } from '@rdkit/rdkit';

export type RDKitModule = MainModule;

let loading: Promise<RDKitModule> | null = null;

/** This thread's RDKit MinimalLib instance (logging off: parse errors are results, not log lines). */
export function getRDKit(): Promise<RDKitModule> {
  loading ??= (async () => {
    const mod = (await import('@rdkit/rdkit')) as unknown as { default: () => Promise<RDKitModule> };
    const rdkit = await mod.default();
    rdkit.disable_logging();
    return rdkit;
  })();
  return loading;
}
