// Builds the web console (docs/console.md) into web/dist, served by the API server at /app
// (src/http/console.ts). Each emitted file also gets a .gz beside it: the server sends it to
// clients that accept gzip, and the build prints the gzipped total (docs/performance.md).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

function gzipFiles(): Plugin {
  let outDir = '';
  return {
    name: 'crucible-gzip',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      let js = 0;
      for (const name of fs.readdirSync(outDir, { recursive: true }) as string[]) {
        const file = path.join(outDir, name);
        if (!/\.(js|css|html|svg|json|wasm)$/.test(name) || !fs.statSync(file).isFile()) continue;
        const gz = zlib.gzipSync(fs.readFileSync(file), { level: 9 });
        fs.writeFileSync(`${file}.gz`, gz);
        if (name.endsWith('.js')) js += gz.length;
      }
      console.log(`crucible-web: JavaScript ${(js / 1024).toFixed(1)} KiB gzipped in all chunks`);
    },
  };
}

export default defineConfig({
  base: '/app/',
  root: import.meta.dirname,
  plugins: [gzipFiles()],
  // The TypeScript SDK (the workspace crucible-client, a dependency) is bundled from its sources:
  // the package's exports name its build (clients/typescript/dist), which the console does not need.
  resolve: { alias: { 'crucible-client': path.resolve(import.meta.dirname, '..', 'clients', 'typescript', 'src', 'index.ts') } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, reportCompressedSize: false },
  // The console is a client of the API: in `vite dev`, /api goes to a running server.
  server: { proxy: { '/api': process.env.CRUCIBLE_URL ?? 'http://127.0.0.1:8000', '/openapi.json': process.env.CRUCIBLE_URL ?? 'http://127.0.0.1:8000' } },
});
