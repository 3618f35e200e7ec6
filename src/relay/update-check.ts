import * as Y from 'yjs'
import { MalformedFrame } from './frames.js'

/**
 * Decodes a Yjs V1 update in full, so a malformed one is refused before any of it is applied
 * (Y.applyUpdate can integrate the structs of an update and then throw on its delete set).
 * @throws MalformedFrame
 */
export function decodeUpdate(update: Uint8Array): ReturnType<typeof Y.decodeUpdate> {
  try {
    return Y.decodeUpdate(update)
  } catch (err) {
    throw new MalformedFrame('not a valid Yjs update', { cause: err })
  }
}

/**
 * Whether applying a decoded update would change `doc`: it has a struct the document lacks, or
 * deletes something the document has not deleted. A read-only member's y-websocket client answers
 * the relay's sync step 1 with a step 2 on every connect; when that step 2 brings nothing new it is
 * dropped quietly, and only a real attempt to write is answered with a refusal. Cost: one pass
 * over the update plus a binary search per deleted range.
 */
export function changesDocument(decoded: ReturnType<typeof Y.decodeUpdate>, doc: Y.Doc): boolean {
  const store = doc.store
  for (const struct of decoded.structs) {
    if (struct instanceof Y.Skip) continue
    if (struct.id.clock + struct.length > Y.getState(store, struct.id.client)) return true
  }
  for (const [client, ranges] of decoded.ds.clients) {
    const structs = store.clients.get(client)
    const known = Y.getState(store, client)
    for (const { clock, len } of ranges) {
      if (len === 0) continue
      if (!structs || clock + len > known) return true
      let at = clock
      while (at < clock + len) {
        const s = structs[Y.findIndexSS(structs, at)]!
        if (!s.deleted) return true
        at = s.id.clock + s.length
      }
    }
  }
  return false
}
