import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/**
 * The worker that openMemory() starts, pre-bundled for shipping: `dist/worker/memory-worker.js`
 * plus one chunk per protocol module (dynamic imports in src/memory-loader.ts). It has no bare
 * imports left, so an app's dev server serves it without pre-bundling anything, and an app's
 * build bundles it again from the `new SharedWorker(new URL(...))` literal in src/client.ts.
 */
export default defineConfig({
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/worker', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    lib: {
      entry: fileURLToPath(new URL('./memory-worker.ts', import.meta.url)),
      formats: ['es'],
      fileName: () => 'memory-worker.js',
    },
    rollupOptions: {
      output: { chunkFileNames: 'chunks/[name]-[hash].js', minify: true },
    },
  },
})
