import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const demo = fileURLToPath(new URL('.', import.meta.url))
const repo = fileURLToPath(new URL('..', import.meta.url))

/**
 * The demo app: `npx vite build --config demo/vite.config.ts` writes demo/dist, which
 * `memweave start --demo demo/dist` serves; `npx vite --config demo/vite.config.ts` runs it with
 * hot reload (the relay is then expected on ws://HOST:7412). The memory worker is bundled as an ES
 * module worker (`?worker&url` in src/main.ts), as openMemory starts it with `type: 'module'`.
 */
export default defineConfig({
  root: demo,
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true },
  worker: { format: 'es' },
  // The app imports the library's sources from ../src and ../worker.
  server: { host: '127.0.0.1', port: 7413, fs: { allow: [repo] } },
  logLevel: 'warn',
})
