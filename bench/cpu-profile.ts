import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'

/**
 * Starts V8's CPU profiler in this process when `out` names a file, and returns what stops it and
 * writes the profile there (a `.cpuprofile` Chrome DevTools opens). Without `out`, both are no-ops,
 * so a bench profiles only when asked.
 */
export async function startCpuProfile(out: string | undefined): Promise<() => Promise<void>> {
  if (!out) return async () => {}
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  return async () => {
    const { profile } = await session.post('Profiler.stop')
    writeFileSync(out, JSON.stringify(profile))
    session.disconnect()
  }
}
