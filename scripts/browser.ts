import { existsSync } from 'node:fs'

/**
 * Which Chromium the tests and benchmarks drive. `MEMWEAVE_CHROMIUM` (or `CHROME_PATH`) picks any
 * Chrome/Chromium binary; otherwise Debian's /usr/bin/chromium when present, else Playwright's own.
 */
export function chromiumPath(): string | undefined {
  const fromEnv = process.env['MEMWEAVE_CHROMIUM'] ?? process.env['CHROME_PATH']
  if (fromEnv) return fromEnv
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined
}

/** Flags for a sandboxed CI container with no outside network (see DEVELOPERS notes in README). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]

export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  const executablePath = chromiumPath()
  return executablePath ? { executablePath, args: CHROMIUM_ARGS } : { args: CHROMIUM_ARGS }
}
