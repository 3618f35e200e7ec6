import { blake2b128 } from '../core/blake2b.js'
import { toHex, utf8 } from '../core/bytes.js'
import type { RecordLog } from '../records/log.js'
import type { JudgeLabel, JudgeVerdict } from './types.js'

/** Format of a stored verdict row; a reader skips rows of any other version. */
export const VERDICT_ROW_VERSION = 1

/** Prefix of verdict rows in the `meta` table (beside the facts' lexical snapshots and the pools' signature verdicts). */
const PREFIX = 'conflictJudge:'

/**
 * One judge's verdict on one pair of texts, kept so that a reload (or another tab) does not ask
 * again. It holds no text: the pair is named by the BLAKE2b-128 of each text (sorted, so the pair
 * has one key in either order), and the judge by its id, so a changed model asks again.
 */
export interface VerdictRow {
  readonly key: string
  readonly v: typeof VERDICT_ROW_VERSION
  readonly judge: string
  readonly label: JudgeLabel
  readonly confidence: number
  /** Wall-clock ms when the verdict arrived (diagnostics). */
  readonly at: number
}

/** What the stage needs of storage: verdict rows by key. */
export interface VerdictStorage {
  get(keys: readonly string[]): Promise<ReadonlyArray<VerdictRow | undefined>>
  put(rows: readonly VerdictRow[]): Promise<void>
}

const textIds = new Map<string, string>()

/** The content id of a text (cached: a pair's texts are hashed once per session). */
export function textId(text: string): string {
  let id = textIds.get(text)
  if (id === undefined) {
    id = toHex(blake2b128(utf8(text)))
    if (textIds.size >= 10_000) textIds.clear()
    textIds.set(text, id)
  }
  return id
}

/** The row key of a judge's verdict on two texts, the same in either order. */
export function verdictKey(judge: string, a: string, b: string): string {
  const [x, y] = [textId(a), textId(b)].sort()
  return `${PREFIX}${judge}|${x}|${y}`
}

export function isVerdictRow(row: unknown, judge: string): row is VerdictRow {
  if (typeof row !== 'object' || row === null) return false
  const r = row as Partial<VerdictRow>
  return r.v === VERDICT_ROW_VERSION && r.judge === judge && isVerdict(r)
}

export function isVerdict(v: unknown): v is JudgeVerdict {
  if (typeof v !== 'object' || v === null) return false
  const { label, confidence } = v as Partial<JudgeVerdict>
  return (label === 'contradiction' || label === 'entailment' || label === 'neutral') && typeof confidence === 'number' && confidence >= 0 && confidence <= 1
}

/**
 * Verdict rows in the record log's `meta` table: read outside any batch, written through the log's
 * batch (so close() waits for them and flush() sees them). A failed write loses a cached verdict,
 * never a record: the pair is asked again after a reload.
 */
export function logVerdictStorage(log: RecordLog): VerdictStorage {
  return {
    get: (keys) => log.storage.read(['meta'], (tx) => tx.getMany<VerdictRow>('meta', keys)),
    put: (rows) => log.write((w) => w.tx.put('meta', rows)).then(() => undefined),
  }
}
