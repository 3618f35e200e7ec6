import { lstat, realpath } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import { ErrorCode, MemweaveError } from '../core/errors.js'

/**
 * Keeps a SMALL workspace's reads and writes inside it (issue 13: a `.small/*.small.yml` that was
 * a symbolic link to a file elsewhere was read, and the start of that file shown in a YAML error;
 * a `.small` that was a symbolic link was written through). A read may follow a link that stays
 * in the workspace; a write never goes through a linked `.small/` or `.small-cache/`.
 */

function refused(root: string, path: string, why: string): MemweaveError {
  const shown = relative(root, path) || path
  // The message names the path only, never what the link points to or what that file holds.
  return new MemweaveError(ErrorCode.PERMISSION_DENIED, `${shown} ${why}; refused`, { field: 'path', path: shown })
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException)?.code
}

/**
 * Checks that `path` (under `root`) really is inside `root` once every symbolic link on the way is
 * resolved. A path that does not exist passes (the caller reads it as missing).
 * @throws MemweaveError PERMISSION_DENIED when it resolves outside, or is a dangling link.
 */
export async function assertInsideWorkspace(root: string, path: string): Promise<void> {
  let real: string
  try {
    real = await realpath(path)
  } catch (err) {
    if (errno(err) !== 'ENOENT') return // the read that follows reports it as it does today
    const link = await lstat(path).catch(() => null)
    if (link?.isSymbolicLink()) throw refused(root, path, 'is a symbolic link to nothing')
    return
  }
  const realRoot = await realpath(root).catch(() => root)
  if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
    throw refused(root, path, 'is, or goes through, a symbolic link that leads outside the workspace')
  }
}

/**
 * Checks that the directory `path` is not a symbolic link, before writing into it: a write lands
 * where the workspace is, not wherever a link points (SMALL documents are replaced by renaming a
 * temporary file, which replaces a linked file itself, but not a linked directory).
 * @throws MemweaveError PERMISSION_DENIED
 */
export async function assertNotLinkedDir(root: string, path: string): Promise<void> {
  const s = await lstat(path).catch(() => null)
  if (s?.isSymbolicLink()) throw refused(root, path, 'is a symbolic link; memweave writes only into a real directory of the workspace')
}
