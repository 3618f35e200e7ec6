import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { invalidArgument, MemweaveError, ErrorCode } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { loadOrCreateIdentityFile } from '../gmp-http/server-identity.js'

/**
 * The identities of the agents sharing one `memweave mcp` directory (`--agent <name>`). Each is
 * an Ed25519 key kept in `<dir>/agents/<name>.json` (identity.json's format, 0600, in a 0700
 * folder): made on the agent's first run, the same on every later one whichever process serves the
 * directory, so each agent's facts carry its own signature and a contradiction between two agents
 * shows two authors. Node only.
 */

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/

/** Throws unless `name` can name an agent: 1-64 letters, digits, `_` and `-`, a letter or digit first (it names a file). */
export function assertAgentName(name: string): void {
  if (!NAME.test(name)) throw invalidArgument('agent', `"${name}" is not an agent name (1-64 of A-Z a-z 0-9 _ -, a letter or digit first)`)
}

/**
 * Loads the key of agent `name` in the store directory `dir`, or makes and keeps it.
 * @throws MemweaveError INVALID_ARGUMENT for a bad name; STORAGE when the file cannot be read or
 *   written or is not a memweave identity; FORMAT_TOO_NEW when a newer memweave wrote it.
 */
export async function loadAgentIdentity(dir: string, name: string): Promise<Identity> {
  assertAgentName(name)
  const folder = join(dir, 'agents')
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 })
  } catch (err) {
    throw new MemweaveError(ErrorCode.STORAGE, `agent identity: cannot create ${folder}: ${(err as Error).message}`, {}, { cause: err })
  }
  return loadOrCreateIdentityFile(join(folder, `${name}.json`), `agent identity "${name}"`)
}
