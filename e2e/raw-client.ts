import * as decoding from 'lib0/decoding'
import { WebSocket } from 'ws'
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'
import { encodeHlc } from '../src/core/clock.js'
import type { Identity } from '../src/core/identity.js'
import { PoolKind, signRecord, type MemoryBody, type MemoryPayload, type PoolRecord } from '../src/pools/records.js'
import type { PoolId } from '../src/pools/types.js'
import { RECORDS_MAP, encodeRecord, type RecordValue } from '../src/sync/codec.js'

/**
 * A stock y-websocket client in Node, outside any Memory: what a hostile or buggy peer holding a
 * pool token runs. It can put anything into the pool's document; the relay only checks the token
 * (and refuses changes from read-only ones), the replicas judge every value.
 */
export interface RawClient {
  readonly doc: Y.Doc
  readonly records: Y.Map<unknown>
  /** Reasons of the "permission denied" auth messages the relay sent (y-protocols/auth, message type 2). */
  readonly denied: string[]
  /** Resolves once the first exchange of states with the relay is done. */
  synced(): Promise<void>
  destroy(): void
}

export function rawClient(url: string, pool: string, token: string): RawClient {
  const doc = new Y.Doc()
  const provider = new WebsocketProvider(url, pool, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: { token },
    disableBc: true,
    maxBackoffTime: 200,
  })
  const denied: string[] = []
  // The stock handler only console.warns the reason; keep it so the test can read it.
  provider.messageHandlers[2] = (_encoder, decoder) => {
    if (decoding.readVarUint(decoder) === 0) denied.push(decoding.readVarString(decoder))
  }
  return {
    doc,
    records: doc.getMap(RECORDS_MAP),
    denied,
    synced: () =>
      provider.synced
        ? Promise.resolve()
        : new Promise<void>((ok) => {
            const on = (s: boolean): void => {
              if (!s) return
              provider.off('sync', on)
              ok()
            }
            provider.on('sync', on)
          }),
    destroy: () => {
      provider.destroy()
      doc.destroy()
    },
  }
}

function payload(subject: string, object: string): MemoryPayload {
  return {
    type: 'CONTEXT', subject, predicate: 'noted', object, context: null, confidence: 1, source: 'direct_statement', evidence: [],
    createdAt: Date.now(), ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes: [], merged: null,
  }
}

/** A pool-memory record signed by `author` by hand, exactly as a Memory would sign it (valid id and signature). */
export function signedMemory(author: Identity, pool: string, subject: string, object: string): Promise<PoolRecord> {
  return signRecord(author, {
    kind: PoolKind.MEMORY, pool: pool as PoolId, tenant: null, body: { payload: payload(subject, object) } as MemoryBody, author: author.did,
    hlc: encodeHlc({ wall: Date.now(), counter: 0, node: 'rawclient' }),
  })
}

/** The value a record travels as in the document (src/sync/codec.ts). */
export function asValue(record: PoolRecord): RecordValue {
  return encodeRecord(record)
}
