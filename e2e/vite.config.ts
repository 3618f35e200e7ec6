import { defineConfig } from 'vite'

/** Serves the repository root so e2e pages can import the sources directly. */
export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  server: { host: '127.0.0.1', strictPort: true, hmr: false },
  logLevel: 'warn',
})
