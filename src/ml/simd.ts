// The WebAssembly SIMD kernels of the fused D-MPNN (src/ml/simd-kernels.as, compiled into
// simd-wasm.ts) and a bump allocator over one instance's memory. Each FusedNet has its own
// instance and so its own memory: nothing is shared between networks or threads.
import { SIMD_WASM_BASE64 } from './simd-wasm.js';

/** The part of WebAssembly's JavaScript API used here (the project's TypeScript lib, ES2023 without the DOM, does not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const WebAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Pointers are byte offsets into `memory`; see simd-kernels.as for each kernel. */
export interface SimdKernels {
  memory: WasmMemory;
  gemm(a: number, sai: number, sap: number, b: number, ldb: number, c: number, ldc: number, m: number, k: number, n: number, acc: number, scratch: number): void;
  gatherRows(out: number, x: number, idx: number, n: number, w: number, acc: number): void;
  gatherSubRows(out: number, x: number, ix: number, y: number, iy: number, n: number, w: number): void;
  segmentSum(out: number, x: number, seg: number, n: number, nSeg: number, w: number): void;
  addBias(x: number, bias: number, rows: number, w: number): void;
  columnSum(out: number, x: number, rows: number, w: number, acc: number): void;
  relu(x: number, n: number): void;
  reluBackward(out: number, g: number, h: number, n: number, scale: number): void;
  addInPlace(x: number, y: number, n: number): void;
  mulInPlace(x: number, m: number, n: number): void;
  transpose(out: number, x: number, r: number, c: number): void;
}

let compiled: object | null = null;

/** A new instance of the kernels, with its own memory. */
export function simdKernels(): SimdKernels {
  compiled ??= new WebAssembly.Module(Buffer.from(SIMD_WASM_BASE64, 'base64'));
  return new WebAssembly.Instance(compiled, {}).exports as unknown as SimdKernels;
}

const PAGE = 65536;
/** Below this the module may keep its own data (it has none today). */
const BASE = 1024;

/** Regions of one instance's memory, allocated from the bottom up; `reset` frees back to a mark. */
export class Arena {
  readonly k: SimdKernels;
  private top = BASE;
  /** the whole memory as float32 and int32 (renewed when the memory grows) */
  f32!: Float32Array;
  i32!: Int32Array;

  constructor(k: SimdKernels = simdKernels()) {
    this.k = k;
    this.refresh();
  }

  private refresh(): void {
    this.f32 = new Float32Array(this.k.memory.buffer);
    this.i32 = new Int32Array(this.k.memory.buffer);
  }

  /** Byte offset of a new region of `count` 4-byte elements, 16-byte aligned. */
  alloc(count: number): number {
    const at = this.top;
    this.top += Math.ceil((count * 4) / 16) * 16;
    return at;
  }

  get mark(): number {
    return this.top;
  }

  reset(mark: number): void {
    this.top = mark;
  }

  /** Grows the memory to hold everything allocated so far; true when it grew (views were renewed). */
  commit(): boolean {
    const have = this.k.memory.buffer.byteLength;
    if (this.top <= have) return false;
    this.k.memory.grow(Math.ceil((this.top - have) / PAGE));
    this.refresh();
    return true;
  }
}
