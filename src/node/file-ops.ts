import type { Key, Schema } from '../storage/port.js'
import type { RecordedOp } from './recording-tx.js'
import { rowBytes } from './file-load.js'

/** The store's size once `ops` apply, and each touched row's new size (null: deleted). */
export function sizeAfter(
  ops: readonly RecordedOp[],
  schema: Schema,
  sizes: ReadonlyMap<string, ReadonlyMap<Key, number>>,
  total: number,
): { total: number; changed: Array<[string, Key, number | null]> } {
  const now = new Map<string, Map<Key, number | null>>()
  for (const op of ops) {
    const key = op[0] === 'd' ? op[2] : (op[2] as Record<string, Key>)[schema[op[1]]!.key]!
    const touched = now.get(op[1]) ?? new Map<Key, number | null>()
    now.set(op[1], touched)
    const before = touched.has(key) ? touched.get(key)! : (sizes.get(op[1])!.get(key) ?? null)
    const after = op[0] === 'd' ? null : rowBytes(op[2])
    total += (after ?? 0) - (before ?? 0)
    touched.set(key, after)
  }
  const changed: Array<[string, Key, number | null]> = []
  for (const [table, keys] of now) for (const [key, bytes] of keys) changed.push([table, key, bytes])
  return { total, changed }
}

/** The final value of every row `ops` touch: the encoded row, or null when deleted. */
export function overridesOf(ops: readonly RecordedOp[], schema: Schema): Map<string, Map<Key, unknown>> {
  const out = new Map<string, Map<Key, unknown>>()
  for (const op of ops) {
    const table = out.get(op[1]) ?? new Map<Key, unknown>()
    out.set(op[1], table)
    if (op[0] === 'd') table.set(op[2], null)
    else table.set((op[2] as Record<string, Key>)[schema[op[1]]!.key]!, op[2])
  }
  return out
}
