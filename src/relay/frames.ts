import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as Y from 'yjs'
import { MessageType, SyncType, type ClientMessage } from '../sync/relay-protocol.js'

/**
 * Reading and writing y-websocket frames (src/sync/relay-protocol.ts has the layout). Parsing is strict: one
 * message per frame, nothing after it, known types only; anything else is a {@link MalformedFrame}
 * and costs the sender its connection, never the relay.
 */

export class MalformedFrame extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'MalformedFrame'
  }
}

/** Decodes one frame from a client. Updates inside are checked separately (update-check.ts). @throws MalformedFrame */
export function parseClientMessage(data: Uint8Array): ClientMessage {
  const decoder = decoding.createDecoder(data)
  let message: ClientMessage
  try {
    const type = decoding.readVarUint(decoder)
    switch (type) {
      case MessageType.SYNC: {
        const sync = decoding.readVarUint(decoder)
        const payload = decoding.readVarUint8Array(decoder)
        if (sync === SyncType.STEP1) {
          Y.decodeStateVector(payload)
          message = { type: 'sync-step1', stateVector: payload }
        } else if (sync === SyncType.STEP2 || sync === SyncType.UPDATE) {
          message = { type: 'sync-update', step: sync === SyncType.STEP2 ? 'step2' : 'update', update: payload }
        } else {
          throw new MalformedFrame(`unknown sync message type ${sync}`)
        }
        break
      }
      case MessageType.AWARENESS:
        message = { type: 'awareness', update: decoding.readVarUint8Array(decoder) }
        break
      case MessageType.QUERY_AWARENESS:
        message = { type: 'query-awareness' }
        break
      default:
        throw new MalformedFrame(`unknown message type ${type}`)
    }
  } catch (err) {
    if (err instanceof MalformedFrame) throw err
    throw new MalformedFrame('truncated or garbled message', { cause: err })
  }
  if (decoding.hasContent(decoder)) throw new MalformedFrame('trailing bytes after the message')
  return message
}

function frame(write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder()
  write(encoder)
  return encoding.toUint8Array(encoder)
}

/** A sync step 1 announcing `stateVector` (by default the document's own). */
export const syncStep1Frame = (doc: Y.Doc, stateVector: Uint8Array = Y.encodeStateVector(doc)): Uint8Array =>
  frame((e) => {
    encoding.writeVarUint(e, MessageType.SYNC)
    encoding.writeVarUint(e, SyncType.STEP1)
    encoding.writeVarUint8Array(e, stateVector)
  })

export const syncStep2Frame = (update: Uint8Array): Uint8Array =>
  frame((e) => {
    encoding.writeVarUint(e, MessageType.SYNC)
    encoding.writeVarUint(e, SyncType.STEP2)
    encoding.writeVarUint8Array(e, update)
  })

export const updateFrame = (update: Uint8Array): Uint8Array =>
  frame((e) => {
    encoding.writeVarUint(e, MessageType.SYNC)
    encoding.writeVarUint(e, SyncType.UPDATE)
    encoding.writeVarUint8Array(e, update)
  })

export const awarenessFrame = (update: Uint8Array): Uint8Array =>
  frame((e) => {
    encoding.writeVarUint(e, MessageType.AWARENESS)
    encoding.writeVarUint8Array(e, update)
  })

/** y-protocols/auth "permission denied" (sub-type 0) with a reason. */
export const permissionDeniedFrame = (reason: string): Uint8Array =>
  frame((e) => {
    encoding.writeVarUint(e, MessageType.AUTH)
    encoding.writeVarUint(e, 0)
    encoding.writeVarString(e, reason)
  })
