import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseAgentDid } from '../core/identity.js'
import { formatTooNew, isTooNew } from '../core/format-version.js'
import { relayFileError as fail } from './file-error.js'
import { writeFileDurably } from '../node/durable-file.js'

/**
 * Who owns a pool, as far as the relay knows: the did:key whose tokens it accepts for that room.
 *
 * - `config`: given to `createRelay({owners})`; never changes, never written to disk.
 * - `proof`:  learned from a token that proves ownership: its issuer, nonce and tenant derive the
 *   pool id (`derivePoolId`), which no one but the owner can sign for. Final.
 * - `tofu`:   learned from the first valid token for the room, on trust (trust on first use).
 *   Threat: whoever connects first to a room the relay has never seen, with a token they signed
 *   themselves, claims it; the real owner's tokens are then refused until a token with a proof
 *   arrives, which re-pins the room to the proven owner and closes everyone admitted under the
 *   squatter. A squatter can thus delay, never read or forge: replicas verify every record
 *   against the pool's owner-signed ACL, whatever the relay admits. `ownerProof: 'required'`
 *   removes the window.
 *
 * Kept in `<room dir>/owner.json`, written through a temp file and rename. Node only.
 */
export type OwnerSource = 'config' | 'proof' | 'tofu'

export interface OwnerPin {
  readonly owner: string
  readonly source: OwnerSource
  /** When it was pinned, epoch ms. */
  readonly at: number
}

const FILE = 'owner.json'

/** Reads a room's pin, or null when it has none. @throws MemweaveError STORAGE for an unreadable or foreign file; FORMAT_TOO_NEW for a pin a newer memweave wrote. */
export async function readOwnerPin(roomDir: string): Promise<OwnerPin | null> {
  const path = join(roomDir, FILE)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw fail(`cannot read ${path}`, err)
  }
  let pin: { v?: unknown; owner?: unknown; source?: unknown; at?: unknown }
  try {
    pin = JSON.parse(text) as typeof pin
  } catch (err) {
    throw fail(`${path} is not a relay owner pin`, err)
  }
  if (isTooNew('ownerPin', pin?.v)) throw formatTooNew('ownerPin', pin.v, path, typeof (pin as { writtenBy?: unknown }).writtenBy === 'string' ? (pin as { writtenBy: string }).writtenBy : undefined)
  try {
    if (pin.v !== 1 || (pin.source !== 'proof' && pin.source !== 'tofu') || typeof pin.at !== 'number') throw new Error('unknown shape')
    return { owner: parseAgentDid(pin.owner as string), source: pin.source, at: pin.at }
  } catch (err) {
    throw fail(`${path} is not a relay owner pin`, err)
  }
}

/** Writes a room's pin durably. @throws MemweaveError STORAGE */
export async function writeOwnerPin(roomDir: string, pin: OwnerPin): Promise<void> {
  const path = join(roomDir, FILE)
  try {
    await writeFileDurably(path, `${JSON.stringify({ v: 1, ...pin })}\n`)
  } catch (err) {
    throw fail(`cannot write ${path}`, err)
  }
}
