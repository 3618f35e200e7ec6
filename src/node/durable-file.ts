import { link, open, rename, unlink, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'

/** How `writeFileDurably` names and creates its temp file. */
export interface DurableWriteOptions {
  /** The temp file beside `path` (default `<path>.tmp`); a per-process name where several processes may write at once. */
  readonly tmp?: string
  /** Refuse to reuse a temp file that exists (`wx`): for a file that must be created by one writer only. */
  readonly exclusive?: boolean
  /**
   * `false`: never replace a file that is there (the temp file is linked into place, which fails
   * with EEXIST where one exists): for a key several processes may create at once, where the
   * first one stored must win. Default true.
   */
  readonly replace?: boolean
}

/**
 * Replaces `path` with `data` so that a crash leaves the old file or the new one, never a torn
 * one: a 0600 temp file beside it (private from its first byte: identity keys go through here),
 * fsync'd, renamed over it, and the directory fsync'd so the rename itself survives a power cut.
 * The temp file is removed when any step fails; the error is the file system's, for the caller to
 * name. Every whole-file write of the Node wing goes through here (the relay's owner pin, lost
 * rooms and pin copy, its update log's rewrite, the GMP server's store registry and identity).
 */
export async function writeFileDurably(path: string, data: string | Uint8Array, options: DurableWriteOptions = {}): Promise<void> {
  const tmp = options.tmp ?? `${path}.tmp`
  try {
    const file = await open(tmp, options.exclusive ? 'wx' : 'w', 0o600)
    try {
      await file.writeFile(data)
      await file.sync()
    } finally {
      await file.close()
    }
    if (options.replace === false) {
      await link(tmp, path)
      await unlink(tmp)
    } else await rename(tmp, path)
  } catch (err) {
    await unlink(tmp).catch(() => undefined)
    throw err
  }
  await syncDir(dirname(path))
}

/** Makes a rename durable; best effort where directories cannot be fsynced (Windows). */
export async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // EISDIR / EPERM / EINVAL on platforms without directory fsync.
  } finally {
    await handle?.close().catch(() => undefined)
  }
}
