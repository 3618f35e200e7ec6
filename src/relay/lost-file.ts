import { readFile, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { relayFileError as fail } from './file-error.js'
import { writeFileDurably } from '../node/durable-file.js'
import type { LostRange } from './gap-fill.js'

/**
 * `<room dir>/lost.json`: the clock ranges the relay filled with GC structs because no replica
 * held them when the log was loaded (gap-fill.ts), kept until a replica brings them back. Beside
 * the log rather than in it, because a compaction writes the filled document and would forget
 * where the gaps were. `{"v":1,"ranges":[{client,clock,len},...]}`; absent when nothing is lost.
 */
const FILE = 'lost.json'

export async function readLostRanges(roomDir: string): Promise<LostRange[]> {
  const path = join(roomDir, FILE)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw fail(`cannot read ${path}`, err)
  }
  try {
    const parsed = JSON.parse(text) as { v?: unknown; ranges?: unknown }
    if (parsed.v !== 1 || !Array.isArray(parsed.ranges)) throw new Error('unknown shape')
    return parsed.ranges.map((r: { client?: unknown; clock?: unknown; len?: unknown }) => {
      if (![r.client, r.clock, r.len].every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) throw new Error('a range is not three clocks')
      return { client: r.client as number, clock: r.clock as number, len: r.len as number }
    })
  } catch (err) {
    throw fail(`${path} is not a relay lost-ranges file`, err)
  }
}

/** Writes the ranges (temp file, fsync, rename), or removes the file when there are none. */
export async function writeLostRanges(roomDir: string, ranges: readonly LostRange[]): Promise<void> {
  const path = join(roomDir, FILE)
  if (ranges.length === 0) {
    await unlink(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw fail(`cannot remove ${path}`, err)
    })
    return
  }
  try {
    await writeFileDurably(path, `${JSON.stringify({ v: 1, ranges })}\n`)
  } catch (err) {
    throw fail(`cannot write ${path}`, err)
  }
}
