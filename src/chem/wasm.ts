// The few WebAssembly APIs the chemistry pool uses, typed here: this project's TypeScript
// libraries (ES2023 + @types/node 20) do not declare the WebAssembly global.

/** A compiled module (shareable with worker threads through workerData). */
export interface WasmModule {
  readonly __wasmModule?: never;
}
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
export type WasmImports = Record<string, Record<string, unknown>>;

interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: WasmImports): Promise<WasmInstance>;
  RuntimeError: new (message?: string) => Error;
}

export const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A WASM trap or an emscripten abort: the RDKit instance that threw it is no longer usable. */
export function isWasmFatal(err: unknown): boolean {
  return err instanceof Wasm.RuntimeError || (err instanceof Error && /^Aborted\(/.test(err.message));
}
