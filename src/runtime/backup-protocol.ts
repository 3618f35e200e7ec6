/**
 * A backup across the worker boundary (issue 28): comlink cannot carry an async iterable, so the
 * worker hands the page two small proxies. An export is read a page of lines per round trip; an
 * import is fed chunks of the file as the page reads them (text or bytes, any size) and reports
 * once finished. AbortSignals do not cross: the page stops pulling or pushing instead.
 */
export interface BackupPages {
  /** The next lines (each ending in "\n"), or null once the backup is whole. */
  next(): Promise<string[] | null>
}

export interface BackupSink {
  push(chunk: string | Uint8Array): Promise<void>
  finish(): Promise<import('../backup/import.js').BackupImportReport>
}

/** The options that cross the boundary (plain data). */
export interface RemoteExportOptions {
  readonly includeIdentitySeed?: boolean
}

export interface RemoteImportOptions {
  readonly batch?: number
}
