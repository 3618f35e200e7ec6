import { createStore, get, set, del, type UseStore } from 'idb-keyval'
import { createIdentity, identityFromKeys, identityKeys, type Identity, type IdentityKeys } from '../core/identity.js'
import { invalidArgument } from '../core/errors.js'
import { hasWebCryptoEd25519 } from '../core/ed25519.js'

// Keys live outside the Dexie schema (DESIGN.md "Runtime"), in their own small database.
let keyStore: UseStore | undefined
const store = (): UseStore => (keyStore ??= createStore('memweave-keys', 'identities'))

/**
 * Loads the identity saved under `label`, or creates and saves one. Where WebCrypto has Ed25519,
 * the private key is a non-extractable CryptoKey: IndexedDB keeps it, no script can read its bytes,
 * and it can still sign in a worker.
 *
 * @example
 * const identity = await loadOrCreateIdentity('agent:planner')
 * const mem = await openMemory({ identity })
 */
export async function loadOrCreateIdentity(label = 'default'): Promise<Identity> {
  if (typeof label !== 'string' || label === '') throw invalidArgument('label', 'must be a non-empty string')
  const saved = await get<IdentityKeys>(label, store())
  if (saved) return identityFromKeys(saved)
  const identity = (await hasWebCryptoEd25519()) ? await createIdentity({ nonExtractable: true }) : await createIdentity()
  await set(label, identityKeys(identity), store())
  return identity
}

/** Forgets a saved identity (its key is gone for good). */
export async function deleteIdentity(label = 'default'): Promise<void> {
  await del(label, store())
}
