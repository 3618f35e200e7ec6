import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as syncProtocol from 'y-protocols/sync'
import { WebsocketProvider, messageSync } from 'y-websocket'
import type * as Y from 'yjs'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { PoolId } from '../pools/types.js'
import { TOKEN_PARAM } from './relay-protocol.js'
import type { ConnectOptions, LinkState, SyncLink, SyncProvider } from './types.js'
import { applyRemoteUpdate, transactionUpdate } from './yjs-structs.js'

/**
 * A y-websocket link to a relay (y-websocket@3 `WebsocketProvider`): the pool id is the room, the
 * pool token travels as a query parameter, the provider reconnects with backoff by itself, and a
 * relay that closes with a 44xx code (token refused) stops the reconnecting and is reported as an
 * error. BroadcastChannel sharing between tabs is off: the worker is the one replica per origin.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a bad URL; CAPABILITY_NOT_SUPPORTED where the runtime
 *   has no WebSocket and none was given (Node 20: pass the `ws` package's class).
 */
export function websocketProvider(options: ConnectOptions): SyncProvider {
  if (typeof options.url !== 'string' || !/^wss?:\/\//.test(options.url)) throw invalidArgument('url', 'must be a ws:// or wss:// URL')
  if (options.token !== undefined && options.token !== null && typeof options.token !== 'string') throw invalidArgument('token', 'must be a string')
  const WS = (options.WebSocketPolyfill ?? (globalThis as { WebSocket?: unknown }).WebSocket) as typeof WebSocket | undefined
  if (typeof WS !== 'function') {
    throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'this runtime has no WebSocket: pass WebSocketPolyfill (e.g. the ws package)', {
      capability: 'WebSocket', operation: 'sync.connect',
    })
  }
  const params: Record<string, string> = { ...(options.params ?? {}) }
  if (options.token) params[TOKEN_PARAM] = options.token
  return {
    kind: 'websocket',
    connect(pool: PoolId, doc: Y.Doc, report: (state: LinkState) => void): SyncLink {
      const provider = new WebsocketProvider(options.url, pool, doc, {
        params,
        WebSocketPolyfill: WS,
        disableBc: true,
        resyncInterval: options.resyncInterval ?? -1,
      })
      const stopUpdates = sendAndReceiveUpdates(provider, doc)
      let error: string | null = null
      let refusal: LinkState['refusal'] = null
      const send = (): void => report({ connected: provider.wsconnected, synced: provider.wsconnected && provider.synced, error, refusal })
      provider.on('status', ({ status }: { status: string }) => {
        if (status === 'connected') {
          error = null
          refusal = null
        }
        send()
      })
      provider.on('sync', () => send())
      // A socket that could not open (relay down, unreachable): the provider retries with backoff.
      provider.on('connection-error', () => {
        error = 'connection error'
        refusal = null
        send()
      })
      // Only a close the provider will not retry (4400-4499) is emitted as 'closed': a refusal.
      provider.on('closed', ({ code, reason }: { code: number; reason: string }) => {
        error = `the relay closed the connection (${code}${reason ? `: ${reason}` : ''})`
        refusal = { code, reason }
        send()
      })
      send()
      let closed = false
      return {
        close() {
          if (closed) return
          closed = true
          stopUpdates()
          provider.destroy()
          provider.awareness.destroy()
          report({ connected: false, synced: false, error: null })
        },
      }
    },
  }
}

/**
 * The provider's Yjs updates without the document's `update` event: y-websocket listens to that
 * event to send local changes, and as long as anyone listens Yjs encodes every transaction's update,
 * the 73 MB a joining device has just received included (0.9 s at 100k records, to be thrown away:
 * the provider sends nothing back for its own origin). Here its sync messages are read as
 * y-protocols reads them, a received update is applied keeping its bytes (the pool's persistence
 * stores them), and a local transaction's update is written once, after the transaction, for the
 * provider's own sender. Returns what undoes it.
 */
function sendAndReceiveUpdates(provider: WebsocketProvider, doc: Y.Doc): () => void {
  const send = provider._updateHandler as (update: Uint8Array, origin: unknown) => void
  doc.off('update', send)
  provider.messageHandlers[messageSync] = (encoder, decoder, p, emitSynced) => {
    encoding.writeVarUint(encoder, messageSync)
    const type = decoding.readVarUint(decoder)
    if (type === syncProtocol.messageYjsSyncStep1) syncProtocol.readSyncStep1(decoder, encoder, doc)
    else if (type === syncProtocol.messageYjsSyncStep2 || type === syncProtocol.messageYjsUpdate) {
      const update = decoding.readVarUint8Array(decoder)
      try {
        applyRemoteUpdate(doc, update, p)
      } catch (err) {
        // As y-protocols does: a malformed update from the relay is reported, not thrown into the socket handler.
        console.error('Caught error while handling a Yjs update', err)
      }
    } else throw new Error('Unknown message type')
    if (emitSynced && type === syncProtocol.messageYjsSyncStep2 && !p.synced) p.synced = true
  }
  const onTransaction = (tr: Y.Transaction): void => {
    if (tr.origin === provider) return
    const update = transactionUpdate(tr)
    if (update) send(update, tr.origin)
  }
  doc.on('afterTransactionCleanup', onTransaction)
  return () => doc.off('afterTransactionCleanup', onTransaction)
}
