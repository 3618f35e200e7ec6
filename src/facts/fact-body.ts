/** The body of a `fact` record: everything a write said, immutable once stored. */
export interface FactBody {
  readonly content: string
  readonly factId: string
  readonly structuredId: string | null
  readonly metadata: Record<string, unknown>
  /** Valid-time start, µs since epoch. */
  readonly validFrom: number
  /** Write time, µs since epoch. */
  readonly writtenAt: number
  /** The ref this version supersedes, if any. */
  readonly supersedes: string | null
  readonly source: { readonly writtenBy: string | null; readonly signature: string | null; readonly publicKey: string | null }
}
