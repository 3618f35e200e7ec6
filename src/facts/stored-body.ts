import { ID_BYTES, packIds, unpackId } from '../core/packed-ids.js'
import type { FactBody } from './fact-body.js'

/**
 * Issue 31: a fact body read from storage, in the shape a Memory keeps it. What IndexedDB hands
 * back for a body is an object grown one property at a time (eight, so half of them in a
 * separate property array) and its own copy of every string; a Chromium heap snapshot of a cold
 * 100k store put the body at 60 B and its two ids at 88 B a fact. Here the fields sit in one
 * fixed-shape object, and the two ids (32 hex characters each, 44 B as strings) in one string of
 * their bytes, a character each (16 or 32 characters, one byte each): 40 + 44 B. The ids read as
 * the same hex strings (`factId`, `structuredId`); a body whose ids are not 32 lower-case hex
 * characters is kept as it was read, since their bytes would not give the same strings back.
 *
 * Readers see the fields a FactBody has; a property a stored body carries beyond them (none is
 * written) is not kept, as no reader of a Version looks for one.
 */
export function storedBody(body: FactBody): FactBody {
  const ids = packIds(body.factId, body.structuredId)
  return ids === null ? body : new StoredFactBody(body, ids)
}

class StoredFactBody implements FactBody {
  readonly content: string
  readonly metadata: Record<string, unknown>
  readonly validFrom: number
  readonly writtenAt: number
  readonly supersedes: string | null
  readonly source: FactBody['source']
  /** The fact id's 16 bytes, then the structured id's when there is one, a character each. */
  readonly #ids: string

  constructor(body: FactBody, ids: string) {
    this.content = body.content
    this.metadata = body.metadata
    this.validFrom = body.validFrom
    this.writtenAt = body.writtenAt
    this.supersedes = body.supersedes
    this.source = body.source
    this.#ids = ids
  }

  get factId(): string {
    return unpackId(this.#ids, 0)
  }

  get structuredId(): string | null {
    return this.#ids.length === 2 * ID_BYTES ? unpackId(this.#ids, ID_BYTES) : null
  }
}
