// openchemlib (BSD-3, cheminfo/Zakodium), loaded on demand: the sketcher and the molfile reader
// share one chunk that the Molecules page requests only when Draw is opened or an .sdf/.mol file
// is read (docs/console.md, "Molecules").
export type Ocl = typeof import('openchemlib');

let loading: Promise<Ocl> | null = null;

export function loadOcl(): Promise<Ocl> {
  loading ??= import('openchemlib').catch((err: unknown) => {
    loading = null; // a failed download may be retried
    throw err;
  });
  return loading;
}
