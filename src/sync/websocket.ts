import { WebsocketProvider } from 'y-websocket'
import type * as Y from 'yjs'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { PoolId } from '../pools/types.js'
import { TOKEN_PARAM } from './relay-protocol.js'
import type { ConnectOptions, LinkState, SyncLink, SyncProvider } from './types.js'

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
      let error: string | null = null
      const send = (): void => report({ connected: provider.wsconnected, synced: provider.wsconnected && provider.synced, error })
      provider.on('status', ({ status }: { status: string }) => {
        if (status === 'connected') error = null
        send()
      })
      provider.on('sync', () => send())
      provider.on('connection-error', () => {
        error = 'connection error'
        send()
      })
      provider.on('closed', ({ code, reason }: { code: number; reason: string }) => {
        error = `the relay closed the connection (${code}${reason ? `: ${reason}` : ''})`
        send()
      })
      send()
      let closed = false
      return {
        close() {
          if (closed) return
          closed = true
          provider.destroy()
          provider.awareness.destroy()
          report({ connected: false, synced: false, error: null })
        },
      }
    },
  }
}
