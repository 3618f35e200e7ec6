/**
 * What the conformance suite needs of a store: the GMP interface contract, camelCased. A memweave
 * `FactStore`, the HTTP client, or any adapter of another backend fits.
 */
export interface ConformanceMemory {
  readonly ref: unknown
  readonly content: string
  readonly tenantId: string | null
  readonly supersededBy: unknown
  readonly validFrom: string | null
  readonly validUntil: string | null
  readonly source: {
    readonly writeId: string | null
    readonly writtenAt: string | null
    readonly writtenBy: string | null
    readonly signature: Uint8Array | null
    readonly publicKey: Uint8Array | null
  } | null
  readonly conflictsWith?: readonly unknown[]
}

export interface ConformanceWriteOptions {
  readonly validFrom?: string | null
  readonly tenantId?: string | null
  readonly metadata?: Record<string, unknown>
  readonly signingKey?: Uint8Array | null
}

export interface ConformanceRetrieveOptions {
  readonly budgetTokens: number
  readonly asOf?: string | null
  readonly tenantId?: string | null
  readonly topK?: number | null
}

export interface ConformanceStore {
  capabilities(): Promise<readonly string[]>
  write(content: string, options?: ConformanceWriteOptions): Promise<unknown>
  supersede(oldRef: unknown, content: string, options?: ConformanceWriteOptions): Promise<unknown>
  delete(ref: unknown): Promise<boolean>
  retrieve(query: string, options: ConformanceRetrieveOptions): Promise<readonly ConformanceMemory[]>
  audit(): Promise<readonly ConformanceMemory[]>
  flush(): Promise<void>
}

/** One fresh, empty store per check; `secondSession` opens another handle on the same store. */
export interface ConformanceSession {
  readonly store: ConformanceStore
  secondSession?(): Promise<ConformanceStore>
  close?(): Promise<void>
}

export type SessionFactory = () => Promise<ConformanceSession>

export type Direction = 'single' | 'leakage' | 'over-restriction' | 'validity' | 'tamper-acceptance' | 'declaration'

/** One line of a conformance report (GMP §8.4). */
export interface CheckResult {
  readonly capability: string
  readonly direction: Direction
  readonly pass: boolean
  /** The failure rate observed over the probes (0 is perfect), or 1 − validity for `validity`. */
  readonly metric: number
  readonly probes: number
  /** 95% paired-bootstrap interval of the failure rate (two-sided checks). */
  readonly interval: readonly [number, number]
  readonly detail: string
}

export interface ConformanceReport {
  readonly declared: readonly string[]
  readonly results: readonly CheckResult[]
  /** Capabilities whose every direction passed: the store's conformance profile (§8.4). */
  readonly profile: readonly string[]
  /** Declared capabilities that failed: each is a ConformanceViolation (§8.1). */
  readonly violations: readonly string[]
}
