import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import { chromiumLaunchOptions } from './scripts/browser.js'

/**
 * Vitest's browser mode rewrites every `import()` it serves into
 * `__vitest_browser_runner__.wrapDynamicImport(...)`, a global that only its test page defines. The
 * memory worker loads each module with `import()` (src/memory-loader.ts), so in the worker the
 * runner is given a pass-through. Tests only: the shipped worker is pre-bundled (worker/vite.config.ts).
 */
const vitestWorkerShim: Plugin = {
  name: 'memweave:vitest-worker-dynamic-import',
  transform(code, id) {
    if (!/\/worker\/memory-worker\.ts$|\/bench\/bench-worker\.ts$/.test(id.split('?')[0]!)) return null
    return `globalThis.__vitest_browser_runner__ ??= { wrapDynamicImport: (load) => load() };\n${code}`
  },
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.browser.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        plugins: [vitestWorkerShim],
        test: {
          name: 'browser',
          include: ['test/**/*.browser.test.ts'],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({ launchOptions: chromiumLaunchOptions() }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
