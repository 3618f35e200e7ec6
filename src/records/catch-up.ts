import type { ReadTx } from '../storage/port.js'
import { logChanges, type LogRow, type StoredRecord } from '../storage/schema.js'

/** What other handles committed after a log position, each record once. */
export interface LogRead {
  /** The last log row read: the handle's new position. */
  readonly seq: number
  /** Still stored, in the order of each one's last put. */
  readonly records: StoredRecord[]
  /** Gone from storage. */
  readonly removed: string[]
}

/**
 * The log rows after `seq`, read as records (log.ts's catch-up): null when there are none,
 * 'reload' when the handle is behind the trimmed log (the rows it missed are gone).
 */
export async function readAfter(tx: ReadTx, seq: number): Promise<LogRead | 'reload' | null> {
  // Whether any row follows `seq`: the common answer is none, which reads no row (the last row,
  // read here before, held a whole batch's ids: 1,000 after a burst, decoded by the next write).
  if ((await tx.after<LogRow>('log', seq, 1)).length === 0) return null
  const floor = (await tx.get<{ value: number }>('meta', 'logFloor'))?.value ?? 0
  if (seq < floor) return 'reload'
  const rows = await tx.after<LogRow>('log', seq)
  // Each record once, whatever happened to it in between: what is still stored is delivered (in
  // the order of its last put), what is gone is removed. A record deleted and put back stays.
  const lastPut = new Map<string, number>()
  const deleted = new Set<string>()
  let i = 0
  logChanges(rows, (op, ref) => {
    if (op === 'put') {
      lastPut.delete(ref)
      lastPut.set(ref, i++)
    } else deleted.add(ref)
  })
  const refs = [...new Set([...lastPut.keys(), ...deleted])]
  const got = await tx.getMany<StoredRecord>('records', refs)
  const present = new Map<string, StoredRecord>()
  got.forEach((r, i) => r && present.set(refs[i]!, r))
  const records = [...lastPut.keys()].filter((id) => present.has(id)).sort((a, b) => lastPut.get(a)! - lastPut.get(b)!).map((id) => present.get(id)!)
  const removed = [...deleted].filter((id) => !present.has(id))
  return { seq: rows.at(-1)!.seq!, records, removed }
}
