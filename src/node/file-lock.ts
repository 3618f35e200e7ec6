import { link, readFile, unlink, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'

/**
 * A lock file holding the owner's pid (Node only). One process owns a directory: a second
 * process is refused while the owner is alive, and a lock left by a dead process is taken over.
 * Node has no advisory file locks, so this is the classic pid file: good against a second
 * `memweave` started by mistake, not a defence against a hostile process on the same machine.
 */
export interface FileLock {
  readonly path: string
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): Promise<void>
}

/** Lock paths this process holds: a second open in the same process is refused too. */
const held = new Set<string>()

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code

/**
 * Takes the lock at `path`, describing the locked thing as `what` in errors.
 * @throws MemweaveError CONFLICT when a live process (or this one) holds it; STORAGE when the file system fails.
 */
export async function acquireLock(path: string, what: string): Promise<FileLock> {
  const abs = resolve(path)
  if (held.has(abs)) {
    throw new MemweaveError(ErrorCode.CONFLICT, `${what} is already open in this process (lock ${abs})`, { lock: abs, pid: process.pid })
  }
  held.add(abs)
  try {
    // The pid is written to a private temp file that is then hard-linked into place: link() fails
    // if the lock exists, and the lock is never seen half-written.
    const tmp = `${abs}.${process.pid}.${Math.random().toString(36).slice(2)}`
    await writeFile(tmp, `${process.pid}\n`, { mode: 0o600 })
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          await link(tmp, abs)
          return lockHandle(abs)
        } catch (err) {
          if (code(err) !== 'EEXIST') throw err
        }
        const text = await readFile(abs, 'utf8').catch((err: unknown) => (code(err) === 'ENOENT' ? null : Promise.reject(err)))
        if (text === null) continue
        const pid = Number.parseInt(text.trim(), 10)
        // Our own pid in a lock we do not hold is a previous run of this process (pid reuse, containers).
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
          throw new MemweaveError(
            ErrorCode.CONFLICT,
            `${what} is in use by process ${pid} (lock file ${abs}); stop that process, or delete the lock file if it is not running memweave`,
            { lock: abs, pid },
          )
        }
        await unlink(abs).catch((err: unknown) => (code(err) === 'ENOENT' ? undefined : Promise.reject(err)))
      }
      throw new MemweaveError(ErrorCode.CONFLICT, `${what}: could not take the lock ${abs}; another process keeps taking it`, { lock: abs })
    } finally {
      await unlink(tmp).catch(() => undefined)
    }
  } catch (err) {
    held.delete(abs)
    if (isMemweaveError(err)) throw err
    throw new MemweaveError(ErrorCode.STORAGE, `${what}: cannot take the lock ${abs}: ${(err as Error).message}`, { lock: abs }, { cause: err })
  }
}

function lockHandle(abs: string): FileLock {
  let released = false
  return {
    path: abs,
    async release() {
      if (released) return
      released = true
      try {
        const text = await readFile(abs, 'utf8')
        if (Number.parseInt(text.trim(), 10) === process.pid) await unlink(abs)
      } catch {
        // Already gone, or unreadable: nothing of ours to remove.
      } finally {
        held.delete(abs)
      }
    },
  }
}
