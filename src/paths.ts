import { fileURLToPath } from 'node:url';

// src/paths.ts and dist/paths.js both sit one level below the package root.
export const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** True when running from TypeScript sources (tsx), false from the compiled dist/. */
export const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');

/** A sibling module's URL with the extension of the running build (.ts under tsx, .js in dist). */
export function siblingModule(fromUrl: string, baseName: string): URL {
  return new URL(`./${baseName}${fromUrl.endsWith('.ts') ? '.ts' : '.js'}`, fromUrl);
}
