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
 * plain objects, arrays and primitives (a typed array, a date) is left unmarked: the adapter copies
 * it as before.
 */
export function freezeRow<T extends object>(row: T): T {
  // One pass that freezes as it checks: a row that turns out not to be plain data stays partly
  // frozen, unmarked; records are never edited, so that changes nothing for them.
  if (!frozen.has(row) && freezePlain(row, 0)) frozen.add(row)
  return row
}

/** Whether `freezeRow` froze this very object. */
export function isFrozenRow(row: object): boolean {
  return frozen.has(row)
}

const MAX_DEPTH = 64

/** Freezes `v` and what it holds, while it is plain data (objects, arrays, primitives); false where it is not. */
function freezePlain(v: unknown, depth: number): boolean {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'symbol'
  if (depth > MAX_DEPTH) return false
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !freezePlain(v[i], depth + 1)) return false
  } else {
    const proto = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null) return false
    for (const k in v) if (k === '__proto__' || !freezePlain((v as Record<string, unknown>)[k], depth + 1)) return false
  }
  Object.freeze(v)
  return true
}
