import * as Y from 'yjs'

/**
 * A JSON-safe, bounded description of whatever a peer put into a pool's Y.Map, for the quarantine
 * row that reports it. The value itself must never be stored: a Y.Map value can be a live Yjs type
 * (a nested Y.Map, Y.Text, Y.XmlFragment...), which neither IndexedDB nor the file store can clone,
 * and one unstorable row used to fail the whole apply transaction on every pass, so no honest
 * record was ever stored again (issue 13, "Hostile peers" 1). Binary, `undefined`, non-finite
 * numbers and huge strings are described, not kept. The result is plain JSON (objects, arrays,
 * strings, finite numbers, booleans, null): structured-cloneable and JSON-round-trippable.
 */
export type Described = null | boolean | number | string | Described[] | { [key: string]: Described }

/** Strings longer than this keep their head and length only. */
const MAX_STRING = 1024
/** Arrays and objects keep this many items (the rest are counted). */
const MAX_ITEMS = 64
const MAX_DEPTH = 8
/** Total nodes described: bounds the work whatever the value's shape. */
const MAX_NODES = 2048

/** The description of `value`; never throws (a getter that throws is described as such). */
export function describeValue(value: unknown): Described {
  const budget = { nodes: MAX_NODES }
  return walk(value, 0, budget)
}

function walk(v: unknown, depth: number, budget: { nodes: number }): Described {
  if (--budget.nodes < 0) return { $omitted: true }
  try {
    if (v === null || typeof v === 'boolean') return v
    if (v === undefined) return { $undefined: true }
    // -0 has no JSON form (it reads back as 0): kept as 0, so the row round-trips exactly.
    if (typeof v === 'number') return Number.isFinite(v) ? (v === 0 ? 0 : v) : { $number: String(v) }
    if (typeof v === 'string') return v.length <= MAX_STRING ? v : { $string: v.length, head: v.slice(0, 256) }
    if (typeof v === 'bigint') return { $bigint: v.toString().slice(0, 256) }
    if (typeof v !== 'object') return { $type: typeof v }
    if (v instanceof Y.AbstractType) return yjsType(v)
    if (ArrayBuffer.isView(v)) return { $binary: v.byteLength }
    if (v instanceof ArrayBuffer) return { $binary: v.byteLength }
    if (depth >= MAX_DEPTH) return { $deep: true }
    if (Array.isArray(v)) {
      const out: Described[] = v.slice(0, MAX_ITEMS).map((x) => walk(x, depth + 1, budget))
      if (v.length > MAX_ITEMS) out.push({ $more: v.length - MAX_ITEMS })
      return out
    }
    const proto = Object.getPrototypeOf(v) as object | null
    if (proto !== Object.prototype && proto !== null) return { $object: String((v as object).constructor?.name ?? 'unknown').slice(0, 64) }
    const out: { [key: string]: Described } = {}
    const keys = Object.keys(v)
    for (const k of keys.slice(0, MAX_ITEMS)) {
      // A key is data too: a megabyte key must not make the row big.
      const name = k.length <= MAX_STRING ? k : `${k.slice(0, 256)}…(${k.length} chars)`
      out[name] = walk((v as Record<string, unknown>)[k], depth + 1, budget)
    }
    if (keys.length > MAX_ITEMS) out['$more'] = keys.length - MAX_ITEMS
    return out
  } catch (err) {
    return { $unreadable: err instanceof Error ? err.name : 'error' }
  }
}

/** A nested Yjs type: its kind and size, not its content (which may be anything, and live). */
function yjsType(t: Y.AbstractType<unknown>): Described {
  const kind =
    // Subclasses first: Y.XmlText is a Y.Text, Y.XmlElement a Y.XmlFragment.
    t instanceof Y.Map ? 'Y.Map' : t instanceof Y.Array ? 'Y.Array' : t instanceof Y.XmlText ? 'Y.XmlText' : t instanceof Y.Text ? 'Y.Text'
      : t instanceof Y.XmlElement ? 'Y.XmlElement' : t instanceof Y.XmlFragment ? 'Y.XmlFragment' : 'Y.AbstractType'
  const size = t instanceof Y.Map ? t.size : t instanceof Y.Array || t instanceof Y.Text || t instanceof Y.XmlFragment ? t.length : null
  return { $yjs: kind, size }
}
