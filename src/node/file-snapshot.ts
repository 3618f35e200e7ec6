import { open, rename, unlink, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { LineWriter, checkedLine } from './file-lines.js'
import { MEMWEAVE_VERSION } from '../core/format-version.js'
import { FILES, snapshotHeader } from './file-load.js'
import { syncDir } from './durable-file.js'

/**
 * Writes `snapshot.jsonl` (format in file-load.ts) from rows already in their JSON form, one line
 * at a time, through a temp file, fsync and rename: the rename is the commit point. No string
 * ever holds the whole store. Then removes v1 files, which the new snapshot supersedes.
 * @throws the I/O error; the temp file is removed and the old snapshot stays.
 */
export async function writeSnapshot(
  dir: string,
  rows: Iterable<readonly [table: string, row: unknown]>,
  seq: number,
  fsync: (file: FileHandle) => Promise<void>,
): Promise<void> {
  const path = join(dir, FILES.snapshot)
  const tmp = `${path}.tmp`
  let file: FileHandle | undefined
  try {
    file = await open(tmp, 'w', 0o600)
    const out = new LineWriter(file)
    await out.write(checkedLine(snapshotHeader(seq, MEMWEAVE_VERSION)).line)
    let count = 0
    for (const [t, r] of rows) {
      count++
      await out.write(checkedLine({ t, r }).line)
    }
    // The row count lets a reader tell a snapshot cut at a line boundary from a whole one.
    await out.write(checkedLine({ end: count }).line)
    await out.flush()
    await fsync(file)
    await file.close()
    file = undefined
    await rename(tmp, path)
  } catch (err) {
    await file?.close().catch(() => undefined)
    await unlink(tmp).catch(() => undefined)
    throw err
  }
  await syncDir(dir)
  await unlinkIfThere(join(dir, FILES.v1Snapshot))
  await unlinkIfThere(join(dir, FILES.v1Log))
}

export async function unlinkIfThere(path: string): Promise<void> {
  await unlink(path).catch((err: unknown) => ((err as NodeJS.ErrnoException)?.code === 'ENOENT' ? undefined : Promise.reject(err)))
}
