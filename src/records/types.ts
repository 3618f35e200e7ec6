import type { ReadTx, WriteTx } from '../storage/port.js'
import type { StoredRecord } from '../storage/schema.js'

/** How a batch of records reaches a deriver. */
export interface Delivery {
  /** The open transaction: a deriver may read other tables through it, and await nothing else. */
  readonly tx: ReadTx
  /** Appended by this Memory in the batch being committed (applied before the commit, so later ops of the batch see them). */
  readonly local: boolean
  /** Part of a full load: the deriver was reset just before. */
  readonly reload: boolean
}

/**
 * What a protocol module derives from the shared record log: its in-memory state, kept equal to a
 * pure function of the records of its kinds. The log reads each record once and hands it to the
 * derivers of its kind; a module never reads the `log` table itself.
 */
export interface Deriver {
  /** For diagnostics and errors. */
  readonly name: string
  /** The record kinds it derives from, in the order a full load delivers them. */
  readonly kinds: readonly string[]
  /** Drops everything derived: a full load follows. */
  reset(): void
  /**
   * Called at the start of a full load, right after `reset`, before the records are asked for:
   * reads of other tables issued here run while the records are read (the fact store's lexical
   * snapshot). The `receive` of that load awaits what it started. Runs inside the load's transaction.
   */
  preload?(tx: ReadTx): void
  /** Records of its kinds, in commit order. Runs inside a storage transaction: await only `delivery.tx`. */
  receive(records: readonly StoredRecord[], delivery: Delivery): void | Promise<void>
  /**
   * With it, a full load hands the deriver its records part by part as storage returns them (the
   * `records` table's key ranges, fanout.ts), so it applies a part while the later ones are still
   * being read: `receive` is called once per part that holds any (`reload` true), each part's
   * records in the deriver's kind order but a later part's tombstone after an earlier part's
   * fact, then `loaded` once, in the same transaction. Only for a deriver whose state does not
   * depend on the order its records arrive in. Without it, a full load is one `receive`.
   */
  loaded?(delivery: Delivery): void | Promise<void>
  /** Ids hard-deleted by any handle; any kind, so unknown ids are ignored. Runs inside a transaction. */
  removed(ids: readonly string[], local: boolean): void
  /** After a pass that delivered something to it, outside any transaction (live queries). */
  changed?(): void
  /** Work that must not run inside a transaction (verify signatures, decrypt, embed): the log's ready(deriver) awaits it. */
  settle?(): Promise<void>
}

/** What one commit or one catch-up changed: the `onAppend` feed. */
export interface LogChange {
  readonly records: readonly StoredRecord[]
  readonly removed: readonly string[]
  /** Committed by this Memory (false: another handle on the same storage, seen on catch-up). */
  readonly local: boolean
  /** The log was reloaded (a failed commit, or a handle too far behind the trimmed log): re-read what you keep. */
  readonly reload: boolean
}

/** The batch under construction, handed to each queued write. */
export interface LogWriter {
  /** The batch's transaction, for the side tables (`vectors`, `meta`, `requests`): writes are buffered and flushed once. */
  readonly tx: WriteTx
  /** Stores records with a log row each, and delivers them to their derivers at once. */
  append(records: readonly StoredRecord[]): Promise<void>
  /**
   * Puts records the batch will append, now: the storage backend writes them while the rest of the
   * batch is prepared (issue 31, write37). Their `append` still logs and delivers them, without a
   * second put. Optional: a writer without it puts at `append`.
   */
  issue?(records: readonly StoredRecord[]): void
  /** Hard-deletes records (no byte of them stays in `records`) with a log row each. */
  remove(ids: readonly string[]): Promise<void>
}

/** A write another handle committed for this one: the dedicated-worker runtime forwards these to its leader. */
export interface ForwardedWrite {
  readonly name: string
  readonly args: unknown
}

/** Commits a named write somewhere else (the elected leader) and resolves with its result. */
export type Forwarder = (write: ForwardedWrite) => Promise<unknown>
