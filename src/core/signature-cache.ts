import { blake2b128 } from './blake2b.js'
import { toHex, utf8 } from './bytes.js'
import { signedRecordId, verifyRecord, type SignedRecord } from './signed-record.js'

/**
 * Signature verdicts, computed once. The check itself is `verifyRecord` (the id matches the
 * content, and the author's key signed the 16 id bytes); this only remembers and batches. One
 * Memory shares one cache between the sync layer, which verifies every value a Y.Doc brings, and
 * the pools store, which verifies the records it reads from storage: a record that arrived by sync
 * is then verified once, not twice (at 100k records a verification pass is several seconds).
 *
 * A verdict is remembered per record *object* (`verify`), never per id and signature alone: a
 * peer can put another body under a verified record's id and signature, and only recomputing the
 * id from that body tells (test/sync/sync-forged-content.test.ts: a cache keyed by id and signature
 * accepted a tombstone whose targets were swapped). Decoded Y.Map values keep their object while
 * the value stays, so a pass re-judging the document pays nothing for what it verified before.
 * Rows of this replica's own storage are another matter: they were written from verified records,
 * so `verifyStored` trusts an id and signature that passed here once, as long as the row's id is
 * still the hash of its content (recomputed for every row read back): another handle on the same
 * storage can put different bytes back under a verified id and signature (issue 26, case 9:
 * test/hostile/hostile-rows.test.ts), and those are verified anew.
 * Verification is asynchronous (WebCrypto), which is why the materializer takes its verdicts as
 * input instead of calling it: that keeps the materializer a pure function.
 */
export class SignatureCache {
  readonly #byObject = new WeakMap<object, boolean>()
  /** Digests (`recordDigest`) of keys that verified (content checked), for rows of local storage. */
  readonly #verified = new Set<string>()
  /** Digests (`storedDigest`) of keys that verified in an earlier session on this storage. */
  readonly #stored = new Set<string>()
  /** Digests of keys that verified in this session and are not saved yet. */
  #unsaved: string[] = []
  /** Past this many keys the set starts over (a verdict is cheap to recompute, memory is not free). */
  readonly #max: number

  constructor(max = 500_000) {
    this.#max = max
  }

  static key(record: Pick<SignedRecord, 'id' | 'sig'>): string {
    return `${record.id}.${record.sig}`
  }

  /**
   * Verdicts for untrusted records (the values of a document), keyed by `SignatureCache.key`: a new
   * map holding exactly these records. Two different records cannot share a key in one document
   * (a Y.Map holds one value per key), so the map is unambiguous for the set it is asked about.
   */
  async verify(records: Iterable<SignedRecord>): Promise<Map<string, boolean>> {
    const list = [...records]
    await this.check(list)
    const out = new Map<string, boolean>()
    for (const r of list) out.set(SignatureCache.key(r), this.#byObject.get(r)!)
    return out
  }

  /** `verify` without the map: each record's verdict is `known(record)` afterwards. */
  async check(records: Iterable<SignedRecord>): Promise<void> {
    const todo: SignedRecord[] = []
    for (const r of records) if (!this.#byObject.has(r)) todo.push(r)
    if (todo.length === 0) return
    const ok = await Promise.all(todo.map((r) => verifyRecord(r)))
    todo.forEach((r, i) => {
      this.#byObject.set(r, ok[i]!)
      if (ok[i]) this.#remember(r)
    })
  }

  /**
   * Records this replica holds as verified without checking their signature: their id was
   * recomputed from their content and the pool owner's checkpoint lists their id and signature
   * (src/sync/checkpoint.ts). The verdict then counts like one `verify` reached.
   */
  vouch(record: SignedRecord, digest?: string): void {
    // A record arriving by sync is vouched for by the sync layer and again when the log delivers it.
    if (this.#byObject.get(record) === true) return
    this.#byObject.set(record, true)
    this.#remember(record, digest)
  }

  /** The verdict on this very record object, if `verify` judged it. */
  known(record: SignedRecord): boolean | undefined {
    return this.#byObject.get(record)
  }

  /**
   * Verdicts for rows of this replica's storage: a key (id and signature) that verified here once,
   * in this session or an earlier one on this storage (`restore`), counts when the row's id is
   * still its content's: the id is the hash of every other field and the signature was checked
   * over it, so only the bytes that were verified pass. That spares a reopened Memory one Ed25519 check per stored record (a
   * pool of 100k took 13 s to open in Node, longer in a browser without WebCrypto Ed25519) while
   * a row whose body was changed under its id and signature, or a record put into storage without
   * passing here (test/pools/pools-access.test.ts injects forged ones), is still checked in full.
   */
  async verifyStored(records: Iterable<SignedRecord>): Promise<Map<string, boolean>> {
    const out = new Map<string, boolean>()
    const todo: SignedRecord[] = []
    for (const r of records) {
      const d = recordDigest(r)
      const known = this.#verified.has(d) || (this.#stored.size > 0 && this.#stored.has(d.slice(0, STORED_DIGITS)))
      if (known && sameBytes(r)) out.set(SignatureCache.key(r), true)
      else todo.push(r)
    }
    for (const [key, ok] of await this.verify(todo)) out.set(key, ok)
    return out
  }

  /** Digests of keys saved by an earlier session (see `takeUnsaved`). */
  restore(digests: Iterable<string>): void {
    for (const d of digests) this.#stored.add(d)
  }

  /** Digests of keys that verified since the last call and were not restored: the caller saves them. */
  takeUnsaved(): string[] {
    const out = this.#unsaved
    this.#unsaved = []
    for (const d of out) this.#stored.add(d)
    return out
  }

  /** How many digests wait to be saved. */
  get unsaved(): number {
    return this.#unsaved.length
  }

  /** `digest` is the record's `recordDigest` where the caller has it already (a checkpoint lookup). */
  #remember(r: SignedRecord, digest?: string): void {
    const d = digest ?? recordDigest(r)
    if (this.#verified.size >= this.#max) this.#verified.clear()
    this.#verified.add(d)
    // Saved only when it would spare a check next time; an unbounded list is not kept either.
    if (this.#unsaved.length < this.#max) {
      const stored = d.slice(0, STORED_DIGITS)
      if (!this.#stored.has(stored)) this.#unsaved.push(stored)
    }
  }
}

/** Whether a row's id is the hash of its content (never throws: a hostile row may not hash at all). */
function sameBytes(r: SignedRecord): boolean {
  try {
    return signedRecordId(r) === r.id
  } catch {
    return false
  }
}

/** A record's id and signature, hashed together: what a checkpoint lists (src/sync/checkpoint.ts). */
export function recordDigest(r: Pick<SignedRecord, 'id' | 'sig'>): string {
  // Ids and signatures are hex: their bytes go straight into one reused buffer (a join hashes every
  // record's). Anything else (a hostile value) takes the general way; both hash UTF-8 of `id.sig`.
  const { id, sig } = r
  const n = id.length + 1 + sig.length
  if (n > DIGEST_INPUT.length) return toHex(blake2b128(utf8(SignatureCache.key(r))))
  let at = 0
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i)
    if (c > 0x7f) return toHex(blake2b128(utf8(SignatureCache.key(r))))
    DIGEST_INPUT[at++] = c
  }
  DIGEST_INPUT[at++] = 0x2e
  for (let i = 0; i < sig.length; i++) {
    const c = sig.charCodeAt(i)
    if (c > 0x7f) return toHex(blake2b128(utf8(SignatureCache.key(r))))
    DIGEST_INPUT[at++] = c
  }
  return toHex(blake2b128(DIGEST_INPUT.subarray(0, n)))
}

/** `recordDigest`'s input buffer: room for a 32-digit id, a dot and a 128-digit signature, and then some. */
const DIGEST_INPUT = new Uint8Array(256)

/** What storage keeps of a verified key: the first 8 bytes (16 hex digits) of its `recordDigest` (no content, no id). */
export const STORED_DIGITS = 16
