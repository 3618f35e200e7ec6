import { open, rename, unlink } from 'node:fs/promises'
import { ErrorCode, MemweaveError } from '../core/errors.js'

/**
 * Replaces `path` with `text` so a crash leaves the old file or the new one, never a torn one: a
 * 0600 temp file beside it, fsync'd, renamed over it. The temp file is removed when any step
 * fails; the error is the file system's, for the caller to name.
 */
export async function writeFileDurably(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp`
  try {
    const file = await open(tmp, 'w', 0o600)
    try {
      await file.writeFile(text, 'utf8')
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(tmp, path)
  } catch (err) {
    await unlink(tmp).catch(() => undefined)
    throw err
  }
}

/** A relay file that cannot be read or written: STORAGE, with the cause's message and the cause. */
export function relayFileError(message: string, cause?: unknown): MemweaveError {
  const detail = cause instanceof Error ? `: ${cause.message}` : ''
  return new MemweaveError(ErrorCode.STORAGE, `relay: ${message}${detail}`, {}, cause === undefined ? {} : { cause })
}
