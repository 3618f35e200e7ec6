import {
  Document, LineCounter, Scalar, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit, type Node,
  type ToStringOptions,
} from 'yaml'
import { LINEAR_KEYS, addDuplicateKeyErrors } from '../core/yaml-keys.js'
import { pointerSegments } from './findings.js'

/**
 * YAML in and out. Reading keeps the node tree and line numbers so a finding can say where it is;
 * writing patches the previous Document in place, so comments, key order, quoting and indentation of
 * everything that did not change survive (SMALL.md "File Format": implementations SHOULD preserve
 * formatting). A document whose data did not change is never re-rendered at all.
 */
export interface ParsedYaml {
  readonly text: string
  /** What the YAML means as JSON data (null for an empty file). Undefined when it did not parse. */
  readonly data: unknown
  /** Syntax errors; empty when the file parsed. */
  readonly errors: ReadonlyArray<{ readonly message: string; readonly line?: number; readonly column?: number }>
  /** The 1-based line and column of the node a JSON pointer names (or of its nearest existing parent). */
  position(pointer: string): { line: number; column: number } | undefined
}

const PARSE_OPTIONS = { prettyErrors: true, strict: true, ...LINEAR_KEYS } as const

/** Parses one YAML document (YAML 1.2 core schema: `1.0.0` and timestamps stay strings). */
export function parseYaml(text: string): ParsedYaml {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { ...PARSE_OPTIONS, lineCounter })
  addDuplicateKeyErrors(doc, lineCounter)
  const errors = doc.errors.map((e) => {
    const pos = e.linePos?.[0]
    const message = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
    return pos ? { message, line: pos.line, column: pos.col } : { message }
  })
  let data: unknown
  if (errors.length === 0) {
    try {
      data = doc.toJS({ maxAliasCount: 100 })
    } catch (err) {
      // An alias bomb or an unresolvable alias: as malformed as a syntax error.
      errors.push({ message: (err as Error).message })
    }
  }
  return {
    text,
    data,
    errors,
    position(pointer) {
      const offset = offsetOf(doc, pointerSegments(pointer))
      if (offset === undefined) return undefined
      const { line, col } = lineCounter.linePos(offset)
      return line === 0 ? { line: 1, column: offset + 1 } : { line, column: col }
    },
  }
}

function offsetOf(doc: Document, segments: readonly string[]): number | undefined {
  let node: unknown = doc.contents
  let at: number | undefined = (node as Node | null)?.range?.[0]
  for (const [i, seg] of segments.entries()) {
    if (isAlias(node)) node = node.resolve(doc)
    if (isMap(node)) {
      const pair = node.items.find((p) => keyText(p.key) === seg)
      if (!pair) return at
      const key = pair.key as Node | null
      node = pair.value
      // The last step points at the key (where a person looks for "foo:"), earlier ones follow values.
      const last = i === segments.length - 1
      at = (last ? key?.range?.[0] : undefined) ?? (node as Node | null)?.range?.[0] ?? key?.range?.[0] ?? at
    } else if (isSeq(node)) {
      node = node.items[Number(seg)]
      if (node === undefined) return at
      at = (node as Node | null)?.range?.[0] ?? at
    } else {
      return at
    }
  }
  return at
}

function keyText(key: unknown): string {
  return String(isScalar(key) ? key.value : key)
}

/** Rendering options that reproduce the source's own layout as closely as yaml can. */
function renderOptions(text: string | null): ToStringOptions {
  const indent = text ? (/^( +)\S/m.exec(text)?.[1]?.length ?? 2) : 2
  // No folding of long lines, except where the source has folded block scalars (`>`): those are
  // refolded at the source's own width rather than joined into one line.
  const folded = text !== null && /:[ \t]*>[-+0-9]*[ \t]*(#.*)?$/m.test(text)
  const longest = text ? Math.max(0, ...text.split('\n').map((l) => l.length)) : 0
  return { indent, lineWidth: folded ? Math.max(80, longest) : 0, minContentWidth: 0, flowCollectionPadding: false }
}

/** Renders new YAML for `data` (a fresh document: timestamps and small_version quoted, as the spec's examples do). */
export function stringifyYaml(data: unknown): string {
  const doc = new Document(data)
  quoteNew(doc, null, true)
  return doc.toString(renderOptions(null))
}

/**
 * Writes `data` over the YAML `previous`, changing only the nodes whose value changed. Returns
 * `previous` itself (same bytes) when the data is unchanged, and a fresh rendering when `previous`
 * is null or does not parse.
 */
export function patchYaml(previous: string | null, data: unknown): string {
  if (previous === null) return stringifyYaml(data)
  const doc = parseDocument(previous, PARSE_OPTIONS)
  addDuplicateKeyErrors(doc)
  if (doc.errors.length > 0) return stringifyYaml(data)
  if (deepEqual(doc.toJS({ maxAliasCount: 100 }), data)) return previous
  const created = new Set<Node>()
  doc.contents = patchNode(doc, doc.contents, data, created) as typeof doc.contents
  quoteNew(doc, created, prefersQuotes(doc))
  return doc.toString(renderOptions(previous))
}

function patchNode(doc: Document, node: unknown, value: unknown, created: Set<Node>): unknown {
  const fresh = (): Node => {
    const n = doc.createNode(value) as Node
    created.add(n)
    return n
  }
  if (isAlias(node)) return deepEqual(node.toJS(doc), value) ? node : fresh()
  if (isMap(node) && isPlainObject(value)) {
    const keep = node.items.filter((p) => Object.hasOwn(value, keyText(p.key)))
    for (const pair of keep) pair.value = patchNode(doc, pair.value, value[keyText(pair.key)], created)
    const present = new Set(keep.map((p) => keyText(p.key)))
    for (const [k, v] of Object.entries(value)) {
      if (present.has(k) || v === undefined) continue
      const pair = doc.createPair(k, v)
      created.add(pair.value as Node)
      keep.push(pair)
    }
    node.items = keep
    return node
  }
  if (isSeq(node) && Array.isArray(value)) {
    const items = node.items.slice(0, value.length).map((item, i) => patchNode(doc, item, value[i], created))
    for (let i = items.length; i < value.length; i++) {
      const n = doc.createNode(value[i]) as Node
      created.add(n)
      items.push(n)
    }
    node.items = items
    return node
  }
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    if (node.value !== value) node.value = value
    return node
  }
  return fresh()
}

/** Whether most string values of the document are double-quoted (then new ones are too). */
function prefersQuotes(doc: Document): boolean {
  let quoted = 0, plain = 0
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.value) && typeof pair.value.value === 'string') {
        if (pair.value.type === Scalar.QUOTE_DOUBLE) quoted++
        else if (pair.value.type === Scalar.PLAIN) plain++
      }
    },
  })
  return quoted > plain
}

const DATE_TIME_LIKE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/

/**
 * Styles new scalars: `small_version` and timestamps are always double-quoted (a YAML 1.1 reader
 * would otherwise read `1.0` as a number and a timestamp as a date); other strings follow the file.
 */
function quoteNew(doc: Document, created: Set<Node> | null, quoteStrings: boolean): void {
  const style = (key: unknown, scalar: Scalar): void => {
    if (typeof scalar.value !== 'string') return
    if (keyText(key) === 'small_version' || DATE_TIME_LIKE.test(scalar.value) || quoteStrings) scalar.type = Scalar.QUOTE_DOUBLE
  }
  const within = (path: readonly unknown[], node: unknown): boolean =>
    created === null || created.has(node as Node) || path.some((p) => created.has(p as Node))
  visit(doc, {
    Pair(_, pair, path) {
      if (isScalar(pair.value) && within(path, pair.value)) style(pair.key, pair.value)
    },
    Scalar(key, node, path) {
      // Sequence items (no key of their own).
      if (typeof key === 'number' && within(path, node) && !isPair(path.at(-1))) style(null, node)
    },
  })
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Structural equality of JSON-like data (object key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined)
    const kb = Object.keys(b).filter((k) => b[k] !== undefined)
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
  }
  return false
}

