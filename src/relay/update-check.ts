import * as Y from 'yjs'
import { MAX_VALUE_DEPTH, tooDeepStructs } from '../sync/update-depth.js'
import { MalformedFrame } from './frames.js'

/**
 * Decodes a Yjs V1 update in full, so a malformed one is refused before any of it is applied
 * (Y.applyUpdate can integrate the structs of an update and then throw on its delete set). An
 * update with a value nested deeper than {@link MAX_VALUE_DEPTH} is refused first, by a walk that
 * does not recurse ({@link checkDepth}): Yjs' own decoder would blow the stack of some client, if
 * not the relay's (issue 26, case 11). Both backends (file and Redis) take their updates from here.
 * @throws MalformedFrame
 */
export function decodeUpdate(update: Uint8Array): ReturnType<typeof Y.decodeUpdate> {
  checkDepth(update)
  try {
    return Y.decodeUpdate(update)
  } catch (err) {
    throw new MalformedFrame('not a valid Yjs update', { cause: err })
  }
}

/** Refuses an update whose values nest deeper than every client can decode. @throws MalformedFrame */
export function checkDepth(update: Uint8Array): void {
  let deep
  try {
    deep = tooDeepStructs(update)
  } catch (err) {
    throw new MalformedFrame('not a valid Yjs update', { cause: err })
  }
  if (deep.length > 0) {
    const s = deep[0]!
    throw new MalformedFrame(`too-deep: a value nests more than ${MAX_VALUE_DEPTH} levels (client ${s.client} clock ${s.clock}); the update was not applied`)
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
