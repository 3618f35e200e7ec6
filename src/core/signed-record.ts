import { fromHex, toHex } from './bytes.js'
import { invalidArgument } from './errors.js'
import { publicKeyFromDid, verifySignature, type Identity } from './identity.js'
import { recordId } from './ids.js'

/**
 * A record that travels between replicas (DESIGN.md "Records"): `{id, kind, pool, tenant, body,
 * author, hlc, sig}`, immutable and content-addressed (`id` = BLAKE2b-128 over the canonical JSON
 * of everything but `id` and `sig`), signed by its author over the 16 id bytes. Every protocol
 * module writes records of this shape into a pool (pool memories and ACLs, artifact versions,
 * SMALL versions and progress entries, observations), so one signature rule and one verifier
 * serve them all and the sync layer never needs to know a module to check who wrote what.
 */
export interface SignedRecord<K extends string = string, B = unknown> {
  readonly id: string
  readonly kind: K
  readonly pool: string
  readonly tenant: string | null
  readonly body: B
  readonly author: string
  readonly hlc: string
  readonly sig: string
}

export type UnsignedRecord<K extends string = string, B = unknown> = Omit<SignedRecord<K, B>, 'id' | 'sig'>

export function signedRecordId(record: UnsignedRecord): string {
  return recordId({
    kind: record.kind, pool: record.pool, tenant: record.tenant, body: record.body, author: record.author, hlc: record.hlc,
  })
}

/** Computes the id and signs it. Runs outside any storage transaction (it awaits crypto). */
export async function signRecord<K extends string, B>(identity: Identity, record: UnsignedRecord<K, B>): Promise<SignedRecord<K, B>> {
  if (record.author !== identity.did) throw invalidArgument('author', 'must be the signing identity')
  const id = signedRecordId(record)
  const sig = toHex(await identity.sign(fromHex(id)))
  return { id, ...record, sig }
}

/** True when the id matches the content and the author's key signed it. Never throws. */
export async function verifyRecord(record: SignedRecord): Promise<boolean> {
  try {
    if (typeof record.sig !== 'string' || record.sig.length !== 128) return false
    if (signedRecordId(record) !== record.id) return false
    return await verifySignature(fromHex(record.sig), fromHex(record.id), publicKeyFromDid(record.author))
  } catch {
    return false
  }
}

/** Whether a stored row belongs to a pool: it names one and carries its author's signature. */
export function isPooled(row: unknown): row is SignedRecord {
  const r = row as SignedRecord | undefined
  return !!r && typeof r.kind === 'string' && typeof r.pool === 'string' && typeof r.sig === 'string' && typeof r.author === 'string'
}
