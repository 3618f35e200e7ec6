/**
 * Rows nothing can change: deep-frozen plain data. IndexedDB stores a copy of every row so that the
 * caller's object may change afterwards; a frozen row cannot change, so the in-memory adapter keeps
 * it by reference instead (a copy of every record was a tenth of a 100k join in Node, and the
 * collector's work on the copies more). The record log freezes what it appends: records are
 * never edited (DESIGN.md, "Records").
 */
const frozen = new WeakSet<object>()

/**
 * Freezes a JSON-like row and everything in it, and marks it as such. A row holding anything but
 * plain objects, arrays and primitives (a typed array, a date) is left as it is, unmarked: the
 * adapter copies it as before.
 */
export function freezeRow<T extends object>(row: T): T {
  if (frozen.has(row)) return row
  if (plainData(row, 0)) {
    deepFreeze(row)
    frozen.add(row)
  }
  return row
}

/** Whether `freezeRow` froze this very object. */
export function isFrozenRow(row: object): boolean {
  return frozen.has(row)
}

const MAX_DEPTH = 64

function plainData(v: unknown, depth: number): boolean {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'symbol'
  if (depth > MAX_DEPTH) return false
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !plainData(v[i], depth + 1)) return false
    return true
  }
  const proto = Object.getPrototypeOf(v)
  if (proto !== Object.prototype && proto !== null) return false
  for (const k of Object.keys(v)) if (k === '__proto__' || !plainData((v as Record<string, unknown>)[k], depth + 1)) return false
  return true
}

function deepFreeze(v: unknown): void {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return
  Object.freeze(v)
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k])
}
