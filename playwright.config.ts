import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './scripts/browser.js'

const PORT = Number(process.env['MEMWEAVE_E2E_PORT'] ?? 5179)

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
  },
  webServer: {
    command: `npx vite --config e2e/vite.config.ts --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/e2e/pages/runtime.html`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
})
