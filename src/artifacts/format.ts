import { Document, isMap, parseDocument, Scalar, visit, type Node, type ToStringOptions } from 'yaml'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { LINEAR_KEYS, addDuplicateKeyErrors } from '../core/yaml-keys.js'
import { stringStyle, type QuoteStyle } from './yaml-style.js'

/**
 * Artifact files (SMP §2): a `---` line, YAML frontmatter, a `---` line, then the Markdown body.
 *
 * Lossless by construction: a parsed file keeps its exact text, and an edit changes the YAML
 * document in place (yaml's Document API), so key order, comments, quoting, number formats and
 * every body byte survive. The body is every byte after the closing `---` line; nothing is
 * trimmed or added. Timestamps are YAML 1.2 core strings, never Dates.
 */

/** How a file lays out its frontmatter, so an edited file keeps its own look. */
export interface Layout {
  /** The opening fence with its line ending (`---\n`, `\uFEFF---\r\n`, ...). */
  readonly open: string
  /** The closing fence with its line ending, if it had one. */
  readonly close: string
  readonly newline: '\n' | '\r\n'
  readonly quote: QuoteStyle
  readonly toString: ToStringOptions
}

/** A parsed artifact file. Immutable: edits make a new one (see edit.ts). */
export interface ArtifactFile {
  /** The exact file text. */
  readonly text: string
  /** The frontmatter as plain data (not yet validated). */
  readonly frontmatter: Record<string, unknown>
  readonly body: string
  /** @internal The YAML document; never mutate it (edit.ts works on a clone). */
  readonly doc: Document
  /** @internal */
  readonly layout: Layout
}

/** The layout memweave writes new files in: AWP's own (see yaml-style.ts). */
export const CANONICAL_LAYOUT: Layout = {
  open: '---\n',
  close: '---\n',
  newline: '\n',
  quote: Scalar.QUOTE_SINGLE,
  toString: { indent: 2, indentSeq: true, flowCollectionPadding: false, lineWidth: 0 },
}

function malformed(message: string, cause?: unknown): MemweaveError {
  return new MemweaveError(ErrorCode.INVALID_ARGUMENT, `frontmatter: ${message}`, { field: 'frontmatter' }, cause === undefined ? {} : { cause })
}

const OPEN = /^(\uFEFF?---[ \t]*)(\r?\n)/
const FENCE = /^---[ \t]*\r?$/

/**
 * Parses an artifact file without judging its content (see validate.ts for that).
 *
 * @throws MemweaveError INVALID_ARGUMENT with `details.field` `frontmatter` when there is no
 *   `---` fenced YAML mapping at the top, or the YAML is malformed; `text` when it is not a string.
 * @example
 * const file = parseArtifactFile(await readFile('artifacts/notes.md', 'utf8'))
 * file.frontmatter.version // 3
 */
export function parseArtifactFile(text: string): ArtifactFile {
  if (typeof text !== 'string') throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, 'text: must be a string', { field: 'text' })
  const open = OPEN.exec(text)
  if (!open) throw malformed('an artifact file must start with a "---" line')
  let pos = open[0].length
  let close: string | undefined
  const yamlStart = pos
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos)
    const end = nl < 0 ? text.length : nl + 1
    if (FENCE.test(text.slice(pos, nl < 0 ? text.length : nl))) {
      close = text.slice(pos, end)
      break
    }
    if (nl < 0) break
    pos = end
  }
  if (close === undefined) throw malformed('has no closing "---" line')
  const source = text.slice(yamlStart, pos)
  const doc = parseDocument(source, { prettyErrors: true, ...LINEAR_KEYS })
  addDuplicateKeyErrors(doc)
  if (doc.errors.length > 0) throw malformed(`is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`, doc.errors[0])
  if (!isMap(doc.contents)) throw malformed(doc.contents === null ? 'is empty' : 'must be a YAML mapping')
  const layout = detectLayout(source, open[1]!, close, open[2] as '\n' | '\r\n', doc)
  return { text, frontmatter: toData(doc), body: text.slice(pos + close.length), doc, layout }
}

/**
 * Writes a new artifact file from plain frontmatter and a body, in the canonical layout.
 * @example
 * const file = stringifyArtifact({ awp: '0.4.0', smp: '1.0', id: 'artifact:notes', type: 'knowledge-artifact', title: 'Notes', version: 1 }, '\n# Notes\n')
 * file.text // "---\nawp: 0.4.0\nsmp: '1.0'\nid: 'artifact:notes'\n...\nversion: 1\n---\n\n# Notes\n"
 */
export function stringifyArtifact(frontmatter: Readonly<Record<string, unknown>>, body: string): ArtifactFile {
  const doc = new Document(frontmatter)
  styleNew(doc.contents as Node, CANONICAL_LAYOUT.quote)
  return renderArtifact(doc, CANONICAL_LAYOUT, body)
}

/** @internal Builds the file for a (new or edited) document. */
export function renderArtifact(doc: Document, layout: Layout, body: string): ArtifactFile {
  let yaml = doc.toString(layout.toString)
  if (layout.newline === '\r\n') yaml = yaml.replace(/\r?\n/g, '\r\n')
  const close = layout.close === '' || /\n$/.test(layout.close) ? layout.close : `${layout.close}${layout.newline}`
  return { text: `${layout.open}${yaml}${close}${body}`, frontmatter: toData(doc), body, doc, layout }
}

/** @internal Gives the strings of a node made by memweave the canonical style. */
export function styleNew(node: Node | null, quote: QuoteStyle): void {
  if (!node) return
  visit(node, {
    Scalar(key, scalar) {
      if (typeof scalar.value !== 'string') return
      const type = stringStyle(scalar.value, quote)
      // A mapping key is never a block scalar.
      scalar.type = key === 'key' && (type === Scalar.BLOCK_LITERAL || type === Scalar.BLOCK_FOLDED) ? Scalar.QUOTE_DOUBLE : type
    },
  })
}

function toData(doc: Document): Record<string, unknown> {
  try {
    return doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>
  } catch (err) {
    throw malformed(`cannot be read: ${(err as Error).message}`, err)
  }
}

/** Reads a file's own conventions: quotes, sequence indentation, indent width, flow padding. */
function detectLayout(source: string, openFence: string, close: string, newline: '\n' | '\r\n', doc: Document): Layout {
  let single = 0
  let double = 0
  visit(doc, {
    Scalar(_key, s) {
      if (s.type === Scalar.QUOTE_SINGLE) single++
      else if (s.type === Scalar.QUOTE_DOUBLE) double++
    },
  })
  // `key:` followed by `- item` at the same indentation: the file does not indent its sequences.
  const indentSeq = !/^([ \t]*)[^\s#-][^\n]*:[ \t]*\r?\n\1-[ \t]/m.test(source)
  let indent = Infinity
  for (const m of source.matchAll(/^( +)[^ \r\n#]/gm)) indent = Math.min(indent, m[1]!.length)
  return {
    open: `${openFence}${newline}`,
    close,
    newline,
    quote: double > 0 && single === 0 ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE,
    toString: {
      indent: Number.isFinite(indent) ? Math.min(Math.max(indent, 1), 8) : 2,
      indentSeq,
      // One option covers both flow kinds in yaml; sequences (authors, tags) are what edits touch.
      flowCollectionPadding: /\[ [^\s\]]/.test(source) || (!/\[[^\s\]]/.test(source) && /\{ [^\s}]/.test(source)),
      lineWidth: 0,
    },
  }
}
