import type { RawData, WebSocket } from 'ws'
import { MalformedFrame, parseClientMessage, permissionDeniedFrame } from './frames.js'
import { READ_ONLY_REFUSAL, RelayCloseCode } from '../sync/relay-protocol.js'
import type { Peer } from './room.js'
import type { ServedRoom } from './room-source.js'
import type { PoolGrant } from '../sync/pool-token.js'
import { changesDocument, decodeUpdate } from './update-check.js'
import { touchedTombstone } from './tombstone-guard.js'

/** Frames a client may send before it is admitted (the y-websocket client sends two or three). */
const MAX_EARLY_FRAMES = 64
/** setTimeout's largest delay; a later expiry is re-checked when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** What a connection needs from its relay. */
export interface ConnectionHost {
  readonly now: () => number
  /** Bytes a client may send before it is admitted (all frames together). */
  readonly maxEarlyBytes: number
  /** Receives unexpected errors (bugs); the connection is closed with 1011. */
  readonly onError: (err: unknown) => void
  /** Called once, when the socket has closed. */
  readonly onClosed: (conn: Connection) => void
}

/**
 * One websocket client of the relay. It is admitted (token checked, room loaded) asynchronously;
 * frames that arrive meanwhile wait in order. Then every frame is parsed strictly and handled:
 * step 1 is answered, awareness is applied and forwarded, document changes are applied only for a
 * writer, refused with a y-protocols "permission denied" for a read-only member, and never applied
 * or stored in that case. Anything malformed closes this connection alone.
 */
export class Connection implements Peer {
  readonly ws: WebSocket
  readonly ip: string
  readonly roomName: string
  #grant: PoolGrant | null = null
  #room: ServedRoom | null = null
  #early: Uint8Array[] | null = []
  #earlyBytes = 0
  #closed = false
  #alive = true
  #expiry: ReturnType<typeof setTimeout> | undefined
  readonly #host: ConnectionHost

  constructor(ws: WebSocket, ip: string, roomName: string, host: ConnectionHost) {
    this.ws = ws
    this.ip = ip
    this.roomName = roomName
    this.#host = host
    // The ws library reports a too-large frame as an error and closes with 1009 itself.
    ws.on('error', () => undefined)
    ws.on('pong', () => {
      this.#alive = true
    })
    ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary))
    ws.on('close', () => this.#onClose())
  }

  get grant(): PoolGrant {
    if (!this.#grant) throw new Error('connection not admitted yet')
    return this.#grant
  }

  get room(): ServedRoom | null {
    return this.#room
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Joins the room and handles the frames that arrived during admission. */
  admit(room: ServedRoom, grant: PoolGrant): void {
    if (this.#closed) return
    this.#grant = grant
    this.#room = room
    room.join(this)
    this.#scheduleExpiry()
    const early = this.#early ?? []
    this.#early = null
    for (const data of early) {
      if (this.#closed) return
      this.#handle(data)
    }
  }

  send(frame: Uint8Array): void {
    if (!this.#closed && this.ws.readyState === this.ws.OPEN) this.ws.send(frame)
  }

  close(code: number, reason: string): void {
    if (this.#closed) return
    this.#closed = true
    this.#detach()
    this.ws.close(code, truncateReason(reason))
  }

  /** Pings the client, or cuts it when it did not answer the previous ping (called by the relay every `heartbeatMs`). */
  heartbeat(): void {
    if (this.#closed) return
    if (!this.#alive) {
      this.#closed = true
      this.#detach()
      this.ws.terminate()
      return
    }
    this.#alive = false
    try {
      this.ws.ping()
    } catch {
      this.ws.terminate()
    }
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (this.#closed) return
    if (!isBinary) return this.close(RelayCloseCode.MALFORMED, 'malformed: text frames are not y-websocket messages')
    const bytes = toBytes(data)
    if (this.#early !== null) {
      this.#earlyBytes += bytes.length
      if (this.#early.length >= MAX_EARLY_FRAMES || this.#earlyBytes > this.#host.maxEarlyBytes) {
        return this.close(RelayCloseCode.MESSAGE_TOO_BIG, 'too-much-early: too much sent before the token was checked')
      }
      this.#early.push(bytes)
      return
    }
    this.#handle(bytes)
  }

  /** Handles one frame; nothing it throws may reach the socket's event loop. */
  #handle(data: Uint8Array): void {
    try {
      this.#dispatch(data)
    } catch (err) {
      if (err instanceof MalformedFrame) return this.close(RelayCloseCode.MALFORMED, `malformed: ${err.message}`)
      this.#host.onError(err)
      this.close(RelayCloseCode.INTERNAL, 'internal: the relay failed to handle the message')
    }
  }

  #dispatch(data: Uint8Array): void {
    const room = this.#room!
    const message = parseClientMessage(data)
    switch (message.type) {
      case 'sync-step1':
        this.send(room.stepTwo(message.stateVector))
        return
      case 'sync-update': {
        const decoded = decodeUpdate(message.update)
        if (!this.#grant!.write) {
          // A read-only client answers our step 1 with its state on every connect: quiet when it
          // holds nothing new, refused out loud when it tries to change the document.
          if (changesDocument(decoded, room.doc)) {
            this.send(permissionDeniedFrame(`${READ_ONLY_REFUSAL} the token for pool ${room.name} grants read access only; the update was not applied`))
          }
          return
        }
        // Tombstones stay in force while no replica that holds them is online (tombstone-guard.ts).
        const tombstone = touchedTombstone(decoded, room.doc)
        if (tombstone !== null) {
          return this.close(RelayCloseCode.REFUSED, `tombstone: the update deletes or replaces tombstone ${tombstone}; it was not applied`)
        }
        let outcome: 'applied' | 'too-large' | 'too-much-pending'
        try {
          outcome = room.applyUpdate(message.update, this)
        } catch (err) {
          throw new MalformedFrame('the update cannot be applied', { cause: err })
        }
        if (outcome === 'too-large') this.close(RelayCloseCode.DOCUMENT_TOO_LARGE, `document-too-large: pool ${room.name} is at its size limit; the update was not applied`)
        if (outcome === 'too-much-pending') {
          this.close(RelayCloseCode.DOCUMENT_TOO_LARGE, `too-much-pending: pool ${room.name} would hold more than its limit of updates whose dependencies are missing; their content was dropped`)
        }
        return
      }
      case 'awareness':
        try {
          room.applyAwareness(message.update, this)
        } catch (err) {
          throw new MalformedFrame('not a valid awareness update', { cause: err })
        }
        return
      case 'query-awareness': {
        const states = room.awarenessStates()
        if (states) this.send(states)
        return
      }
    }
  }

  #scheduleExpiry(): void {
    const left = this.#grant!.expiresAt - this.#host.now()
    if (left <= 0) return this.close(RelayCloseCode.UNAUTHORIZED, 'expired: the token expired; reconnect with a fresh one')
    this.#expiry = setTimeout(() => this.#scheduleExpiry(), Math.min(left, MAX_TIMER_MS))
    this.#expiry.unref?.()
  }

  #detach(): void {
    clearTimeout(this.#expiry)
    this.#early = null
    this.#room?.leave(this)
  }

  #onClose(): void {
    if (!this.#closed) {
      this.#closed = true
      this.#detach()
    }
    this.#host.onClosed(this)
  }
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data)
  if (data instanceof ArrayBuffer) return new Uint8Array(data)
  return data
}

/** A websocket close reason is at most 123 bytes of UTF-8 (RFC 6455 §5.5). */
export function truncateReason(reason: string): string {
  const bytes = Buffer.from(reason, 'utf8')
  if (bytes.length <= 123) return reason
  let cut = 120
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--
  return `${bytes.subarray(0, cut).toString('utf8')}...`
}
