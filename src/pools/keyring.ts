import { fromUtf8, toHex, utf8 } from '../core/bytes.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { canonicalJson } from '../core/ids.js'
import { importAesKey, open, randomBytes, seal } from './crypto.js'
import { keyAgreementFor, unwrapKey, wrapKey } from './key-wrap.js'
import { isPayload } from './payload.js'
import type { KeyBody, MemoryBody, MemoryPayload, PoolRecord, Sealed } from './records.js'
import type { Structure } from './structure.js'

interface PoolKey {
  readonly keyId: string
  readonly epoch: number
  readonly raw: Uint8Array
  readonly key: CryptoKey
}

/**
 * The content keys of encrypted pools this identity holds, unwrapped from the owner's `pool-key`
 * records addressed to it. A key never reaches storage unwrapped. Epoch n+1 starts when a member is
 * revoked: new memories are sealed only under the highest epoch, whose wraps the revoked member
 * does not get; what it could read before, it keeps (it may have copied it anyway).
 *
 * The AES-GCM additional data binds each ciphertext to its pool, tenant, author and timestamp, so a
 * member cannot re-publish another member's ciphertext under its own name.
 */
export class KeyRing {
  readonly #identity: Identity | null
  readonly #keys = new Map<string, Map<string, PoolKey>>()

  constructor(identity: Identity | null) {
    this.#identity = identity
  }

  #ring(pool: string): Map<string, PoolKey> {
    let ring = this.#keys.get(pool)
    if (!ring) this.#keys.set(pool, (ring = new Map()))
    return ring
  }

  async add(pool: string, keyId: string, epoch: number, raw: Uint8Array): Promise<void> {
    this.#ring(pool).set(keyId, { keyId, epoch, raw, key: await importAesKey(raw) })
  }

  /** A fresh random key for epoch `epoch`; returns its id. */
  async generate(pool: string, epoch: number): Promise<string> {
    const keyId = toHex(randomBytes(16))
    await this.add(pool, keyId, epoch, randomBytes(32))
    return keyId
  }

  /** Every key of a pool this identity holds (to wrap for a new member, who must read old memories too). */
  keys(pool: string): PoolKey[] {
    return [...this.#ring(pool).values()]
  }

  /** The key of the pool's current epoch. @throws PERMISSION_DENIED when this identity does not hold it. */
  current(s: Structure): PoolKey {
    const key = this.keys(s.id).find((k) => k.epoch === s.epoch)
    if (!key) {
      throw new MemweaveError(ErrorCode.PERMISSION_DENIED, `no key of epoch ${s.epoch} of encrypted pool ${s.id} is wrapped for this identity`, { pool: s.id })
    }
    return key
  }

  async wrap(pool: string, key: PoolKey, member: string): Promise<KeyBody> {
    return wrapKey(pool, key.keyId, key.epoch, member, key.raw)
  }

  /** Unwraps the structure's key records addressed to this identity that are not in the ring yet. */
  async openWraps(s: Structure): Promise<void> {
    const me = this.#identity
    if (!me) return
    const ring = this.#ring(s.id)
    const mine = s.keys.filter((k) => k.body.member === me.did && !ring.has(k.body.keyId))
    if (mine.length === 0) return
    const agreement = await keyAgreementFor(me)
    if (!agreement) return
    for (const k of mine) {
      try {
        await this.add(s.id, k.body.keyId, k.body.epoch, await unwrapKey(s.id, k.body, agreement, me.publicKey))
      } catch {
        // A wrap that does not open for us is ignored, as a record with a bad signature would be.
      }
    }
  }

  async sealPayload(meta: AadMeta, payload: MemoryPayload, s: Structure): Promise<MemoryBody> {
    const key = this.current(s)
    return { sealed: await seal(key.key, key.keyId, utf8(canonicalJson(payload)), aad({ ...meta, keyId: key.keyId })) }
  }

  /** The plaintext of a sealed memory record, or null when this identity lacks its key or it does not verify. */
  async openPayload(record: PoolRecord<MemoryBody>): Promise<MemoryPayload | null> {
    const body = record.body
    if (!('sealed' in body)) return null
    const key = this.#keys.get(record.pool)?.get(body.sealed.keyId)
    if (!key) return null
    try {
      const plain = JSON.parse(fromUtf8(await open(key.key, body.sealed, aad({ ...record, keyId: body.sealed.keyId })))) as unknown
      return isPayload(plain) ? plain : null
    } catch {
      return null
    }
  }

  async sealText(meta: AadMeta, text: string, pool: string, keyId: string): Promise<Sealed> {
    const key = this.#ring(pool).get(keyId)!
    return seal(key.key, keyId, utf8(text), aad({ ...meta, keyId }))
  }

  async openText(meta: AadMeta, sealed: Sealed): Promise<string | null> {
    const key = this.#keys.get(meta.pool)?.get(sealed.keyId)
    if (!key) return null
    try {
      return fromUtf8(await open(key.key, sealed, aad({ ...meta, keyId: sealed.keyId })))
    } catch {
      return null
    }
  }
}

export interface AadMeta {
  readonly kind: string
  readonly pool: string
  readonly tenant: string | null
  readonly author: string
  readonly hlc: string
}

function aad(m: AadMeta & { keyId: string }): Uint8Array {
  return utf8(canonicalJson({ kind: m.kind, pool: m.pool, tenant: m.tenant, author: m.author, hlc: m.hlc, keyId: m.keyId }))
}
