import { execFile } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { OWNER_SEED, readBack } from '../../scripts/upgrade-fixture-data.js'
import { copyStore, expectedOf, openStore } from './upgrade-fixtures-helpers.js'
import { ensureBuilt } from '../helpers/processes.js'

/**
 * Issue 28: an upgrade is atomic. The first open of an older store with today's build migrates it
 * (a v1 directory, snapshot.json + changes.jsonl, becomes snapshot.jsonl; a v2 directory's log is
 * folded into a new snapshot) and its first write adds the format marker. A process killed
 * (SIGKILL, no cleanup) right after any one step that may change the directory (an open, a write,
 * a truncate, an fsync, a rename, an unlink), each step in turn,
 * leaves a store that the next open reads whole: every answer the old build gave, and the fact the
 * killed process was writing either entirely there or absent.
 *
 * A killed process is not a power cut: what it wrote before the kill is in the page cache. Power
 * loss is what the fsyncs before each rename are for (src/node/file-snapshot.ts).
 *
 * The children run plain `node` against the build (dist/: `npm test` builds first, and a build
 * older than a source is made again here), not tsx: about 26 children each compiling the sources
 * took some two minutes of a loaded machine.
 */

const ROOT = join(import.meta.dirname, '../..')
const CHILD = join(import.meta.dirname, '..', 'processes', 'upgrade-crash-child.mjs')
const BUILT = ['dist/src/index.js', 'dist/src/node/index.js']
const WRITTEN = 'Written during the first open'

beforeAll(() => ensureBuilt(BUILT), 180_000)

interface Run {
  readonly killed: boolean
  readonly steps: number | null
}

function runChild(dir: string, killAt: number, readAt: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHILD, dir, String(killAt), String(readAt), OWNER_SEED], (err, stdout, stderr) => {
      if (err && (err as { signal?: string }).signal === 'SIGKILL') return resolve({ killed: true, steps: null })
      if (err) return reject(new Error(`child failed: ${stderr}`))
      const m = /steps (\d+)/.exec(stdout)
      resolve({ killed: false, steps: m ? Number(m[1]) : null })
    })
  })
}

/** Every answer but the fact the killed process wrote, which may or may not have landed. */
function withoutWritten(answers: Record<string, unknown>): Record<string, unknown> {
  const out = { ...answers }
  for (const key of ['audit', 'current']) out[key] = (answers[key] as { content: string }[]).filter((m) => m.content !== WRITTEN)
  return out
}

describe.each(['01f0bea', '7dd317d'])('the first open of a store written by %s, killed after each step', (sha) => {
  it('leaves the old data readable, whole, by the next open', async () => {
    const { written: w, answers } = await expectedOf(sha)
    // Find how many steps the whole upgrade takes, then kill after each; four children at a time.
    const whole = await runChild(await copyStore(sha), Number.MAX_SAFE_INTEGER, w.readAt)
    expect(whole.killed).toBe(false)
    const steps = whole.steps!
    expect(steps).toBeGreaterThan(3)
    const points = Array.from({ length: steps }, (_, i) => i + 1)
    for (let i = 0; i < points.length; i += 4) {
      await Promise.all(points.slice(i, i + 4).map(async (killAt) => {
        const dir = await copyStore(sha)
        expect(await runChild(dir, killAt, w.readAt), `step ${killAt}`).toEqual({ killed: true, steps: null })
        const mem = await openStore(dir, w)
        const now = await readBack(mem, w)
        const audit = (now['audit'] as { content: string }[]).filter((m) => m.content === WRITTEN)
        expect(audit.length, `step ${killAt}`).toBeLessThanOrEqual(1)
        const kept = withoutWritten(now)
        for (const key of Object.keys(answers)) expect(kept[key], `step ${killAt}: ${key}`).toMatchObject(answers[key] as object)
        await mem.close()
        // The reopen finished the migration: one v2 snapshot, no temp file, no v1 file left.
        expect((await readdir(dir)).sort(), `step ${killAt}`).toEqual(['log.jsonl', 'snapshot.jsonl'])
      }))
    }
  }, 600_000)
})
