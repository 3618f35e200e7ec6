import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fromHex, toHex } from '../core/bytes.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { formatTooNew, isTooNew } from '../core/format-version.js'
import { createIdentity, type Identity } from '../core/identity.js'
import { writeFileDurably } from '../node/durable-file.js'

/**
 * The GMP server's own signing identity, kept in `<dir>/identity.json` (mode 0600) so the
 * signatures of facts written without a client key stay verifiable under one key across
 * restarts. Node only.
 */

const FILE = 'identity.json'

interface IdentityFile {
  readonly version: 1
  readonly did: string
  /** Hex of the 32-byte Ed25519 seed. */
  readonly seed: string
}

/**
 * Loads the identity in `dir`, or makes one and stores it.
 * @throws MemweaveError STORAGE when the file cannot be read or written, or is not a memweave identity;
 *   FORMAT_TOO_NEW when a newer memweave wrote it (the file is left as it is).
 */
export async function loadOrCreateIdentity(dir: string): Promise<Identity> {
  return loadOrCreateIdentityFile(join(dir, FILE))
}

/**
 * Loads the identity kept in the file at `path` (identity.json's format), or makes one and stores
 * it there. Two processes creating it at once both end with the one that reached the file first.
 * @throws MemweaveError STORAGE when the file cannot be read or written, or is not a memweave identity;
 *   FORMAT_TOO_NEW when a newer memweave wrote it (the file is left as it is).
 */
export async function loadOrCreateIdentityFile(path: string, label = 'GMP server identity'): Promise<Identity> {
  const fail = (message: string, cause?: unknown): MemweaveError => failure(label, message, cause)
  let text: string | undefined
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw fail(`cannot read ${path}`, err)
  }
  if (text !== undefined) return parse(text, path, fail)
  const identity = await createIdentity()
  const body: IdentityFile = { version: 1, did: identity.did, seed: toHex(identity.exportSeed()) }
  try {
    // A temp name per process and call; linked into place, so a key another process stored
    // first is never replaced: that one is read back instead.
    await writeFileDurably(path, `${JSON.stringify(body, null, 2)}\n`, { tmp: `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`, exclusive: true, replace: false })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateIdentityFile(path, label)
    throw fail(`cannot write ${path}`, err)
  }
  return identity
}

async function parse(text: string, path: string, fail: (message: string, cause?: unknown) => MemweaveError): Promise<Identity> {
  let body: Partial<IdentityFile>
  try {
    body = JSON.parse(text) as Partial<IdentityFile>
  } catch (err) {
    throw fail(`${path} is not valid JSON`, err)
  }
  if (isTooNew('identityFile', body?.version)) throw formatTooNew('identityFile', body.version as number, path)
  if (body?.version !== 1 || typeof body.seed !== 'string' || !/^[0-9a-f]{64}$/i.test(body.seed)) {
    throw fail(`${path} is not a memweave server identity (version 1, 32-byte hex seed)`)
  }
  const identity = await createIdentity({ seed: fromHex(body.seed) })
  if (body.did !== undefined && body.did !== identity.did) throw fail(`${path}: the seed does not match the recorded did`)
  return identity
}

function failure(label: string, message: string, cause?: unknown): MemweaveError {
  const detail = cause instanceof Error ? `: ${cause.message}` : ''
  return new MemweaveError(ErrorCode.STORAGE, `${label}: ${message}${detail}`, {}, cause === undefined ? {} : { cause })
}
