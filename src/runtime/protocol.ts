import type { ForwardedWrite } from '../records/types.js'
import type { ErrorDetails, ErrorCode } from '../core/errors.js'

/**
 * Messages between the dedicated workers of several tabs (the fallback where there is no
 * SharedWorker), over one BroadcastChannel per database. Every message names its protocol
 * version, so a tab running an older build ignores what it does not understand.
 */
export const PROTOCOL_VERSION = 1

export interface SerializedError {
  readonly code: ErrorCode
  readonly message: string
  readonly details: ErrorDetails
}

export type TabMessage =
  /** A worker that got the lock says it now commits for everyone. */
  | { readonly type: 'leader'; readonly v: 1; readonly node: string }
  /** A new worker asks the leader to announce itself. */
  | { readonly type: 'who-leads'; readonly v: 1; readonly node: string }
  /** A follower asks the leader to commit a mutation it prepared (and signed). */
  | { readonly type: 'commit'; readonly v: 1; readonly id: string; readonly from: string; readonly mutation: ForwardedWrite }
  | { readonly type: 'committed'; readonly v: 1; readonly id: string; readonly to: string; readonly result: unknown }
  | { readonly type: 'failed'; readonly v: 1; readonly id: string; readonly to: string; readonly error: SerializedError }
  /** A follower asks the leader to run a method that only the leader may run (sync: the one replica that talks to relays). */
  | { readonly type: 'call'; readonly v: 1; readonly id: string; readonly from: string; readonly method: string; readonly args: readonly unknown[] }
  | { readonly type: 'returned'; readonly v: 1; readonly id: string; readonly to: string; readonly result: unknown }
  /** What the leader tells every tab about its work: sync status, the links it keeps (so a successor can take them over). */
  | { readonly type: 'news'; readonly v: 1; readonly topic: string; readonly from: string; readonly value: unknown }

export function isTabMessage(data: unknown): data is TabMessage {
  return typeof data === 'object' && data !== null && (data as { v?: unknown }).v === PROTOCOL_VERSION && typeof (data as { type?: unknown }).type === 'string'
}

export function channelName(database: string): string {
  return `memweave-tabs:${database}`
}
