import { fromHex, toHex } from '../core/bytes.js'
import { verify } from '../core/ed25519.js'
import { contentFactId, recordId } from '../core/ids.js'
import { publicKeyFromDid, verifySignature } from '../core/identity.js'
import { verifyRecord, type SignedRecord } from '../core/signed-record.js'
import type { StoredRecord } from '../storage/schema.js'
import { BACKUP_KINDS } from './kinds.js'

/**
 * Why a record from a backup may not be stored, or null when it holds. The checks a record gets when
 * it arrives by sync or is read from a damaged disk: its shape; a pooled record's id over its
 * content and its author's Ed25519 signature over the id (src/core/signed-record.ts); a local
 * record's content id; a fact's content hash and provenance signature (GMP §4.1). Never throws.
 */
export async function checkBackupRecord(value: unknown): Promise<string | null> {
  try {
    const r = value as Partial<StoredRecord> | null
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return 'not a record'
    if (typeof r.id !== 'string' || !/^[0-9a-f]{32}$/.test(r.id)) return 'no record id'
    if (typeof r.kind !== 'string') return 'no kind'
    if (!BACKUP_KINDS.has(r.kind)) return `unknown kind ${JSON.stringify(r.kind)}`
    if (typeof r.hlc !== 'string') return 'no stamp'
    if (r.tenant !== null && typeof r.tenant !== 'string') return 'a malformed tenant'
    if (r.author !== null && typeof r.author !== 'string') return 'a malformed author'
    const extra = Object.keys(r).filter((k) => !['id', 'kind', 'tenant', 'body', 'author', 'hlc', 'sig', 'pool'].includes(k))
    if (extra.length) return `unknown fields ${extra.join(', ')}`
    if (r.pool !== undefined) {
      if (typeof r.pool !== 'string' || typeof r.sig !== 'string' || typeof r.author !== 'string') return 'a pooled record without its author or signature'
      return (await verifyRecord(r as SignedRecord)) ? null : 'its id or signature does not verify (altered, or not signed by its author)'
    }
    if (recordId({ kind: r.kind, tenant: r.tenant, body: r.body, author: r.author, hlc: r.hlc }) !== r.id) return 'its content does not hash to its id (altered)'
    // A local record its author signed over the id (SMALL versions written by an identity).
    if (r.sig !== undefined) {
      if (typeof r.sig !== 'string' || !/^[0-9a-f]{128}$/.test(r.sig) || typeof r.author !== 'string') return 'a malformed signature'
      if (!(await verifySignature(fromHex(r.sig), fromHex(r.id), publicKeyFromDid(r.author)))) return 'its signature does not verify (not signed by its author)'
    }
    if (r.kind === 'fact') return await checkFact(r as StoredRecord)
    return null
  } catch (err) {
    return `unreadable (${(err as Error).message})`
  }
}

async function checkFact(r: StoredRecord): Promise<string | null> {
  const body = r.body as { content?: unknown; factId?: unknown; source?: { signature?: unknown; publicKey?: unknown } | null }
  if (typeof body?.content !== 'string' || typeof body.factId !== 'string') return 'not a fact'
  if (toHex(contentFactId(body.content, r.tenant)) !== body.factId) return 'its content does not hash to its fact id (altered)'
  const { signature, publicKey } = body.source ?? {}
  if (signature === null || signature === undefined) return null
  if (typeof signature !== 'string' || typeof publicKey !== 'string') return 'a malformed provenance signature'
  return (await verify(fromHex(signature), fromHex(body.factId), fromHex(publicKey))) ? null : 'its provenance signature does not verify'
}
