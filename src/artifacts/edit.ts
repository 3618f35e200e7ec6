import { isCollection, isMap, isScalar, isSeq, Pair, Scalar, type Document, type Node, type YAMLMap } from 'yaml'
import { renderArtifact, styleNew, type ArtifactFile } from './format.js'
import { stringStyle, type QuoteStyle } from './yaml-style.js'

/** SMP §2.1's key order: where a key the file lacks is inserted. Unknown keys stay where they are. */
export const KEY_ORDER = [
  'awp', 'smp', 'type', 'id', 'title', 'authors', 'version', 'confidence', 'tags', 'created', 'lastModified', 'modifiedBy', 'provenance',
] as const

/**
 * Changes frontmatter in place on a YAML document: existing nodes keep their style and comments,
 * new nodes get the canonical style (yaml-style.ts), missing keys go where SMP §2.1 puts them.
 */
export class FrontmatterEditor {
  readonly #doc: Document
  readonly #map: YAMLMap
  readonly #quote: QuoteStyle

  constructor(doc: Document, quote: QuoteStyle) {
    this.#doc = doc
    this.#map = doc.contents as YAMLMap
    this.#quote = quote
  }

  #pair(key: string): Pair | undefined {
    return this.#map.items.find((p) => isScalar(p.key) && p.key.value === key) as Pair | undefined
  }

  #node(value: unknown): Node {
    const node = this.#doc.createNode(value) as Node
    styleNew(node, this.#quote)
    return node
  }

  /** Sets a top-level key to a string, number or array of strings/objects. */
  set(key: string, value: unknown): void {
    const pair = this.#pair(key)
    if (!pair) return this.#insert(key, value)
    const old = pair.value as Node | null
    if (isScalar(old) && (typeof value === 'string' || typeof value === 'number') && typeof old.value === typeof value) {
      old.value = value
      if (typeof value === 'string') old.type = stringStyle(value, this.#quote, old.type)
      // A number's written form (`0.80`) belongs to the old value.
      else delete (old as Scalar & { minFractionDigits?: number }).minFractionDigits
      return
    }
    const node = this.#node(value)
    if (isCollection(old) && isCollection(node)) node.flow = old.flow
    if (old) {
      node.commentBefore = old.commentBefore
      node.comment = old.comment
    }
    pair.value = node
  }

  /** Appends one item to a top-level sequence (creating it when absent). */
  append(key: string, item: unknown): void {
    const seq = this.#pair(key)?.value
    if (isSeq(seq)) seq.items.push(this.#node(item))
    else this.set(key, [item])
  }

  #insert(key: string, value: unknown): void {
    const pair = new Pair(this.#node(key), this.#node(value))
    const rank = (KEY_ORDER as readonly string[]).indexOf(key)
    const rankOf = (p: Pair): number => (isScalar(p.key) ? (KEY_ORDER as readonly string[]).indexOf(String(p.key.value)) : -1)
    const items = this.#map.items as Pair[]
    let at = items.length
    if (rank >= 0) {
      // After the nearest key that SMP puts before this one, else before the nearest one it puts after.
      const before = items.findLastIndex((p) => rankOf(p) >= 0 && rankOf(p) < rank)
      const after = items.findIndex((p) => rankOf(p) > rank)
      if (before >= 0) at = before + 1
      else if (after >= 0) at = after
    }
    items.splice(at, 0, pair)
  }
}

/**
 * A new file from `file` with its frontmatter changed by `change` and the given body.
 * `file` itself is untouched (the edit works on a clone of its document).
 */
export function editArtifact(file: ArtifactFile, body: string, change: (fm: FrontmatterEditor) => void): ArtifactFile {
  const doc = file.doc.clone()
  if (!isMap(doc.contents)) throw new TypeError('editArtifact: frontmatter is not a mapping')
  change(new FrontmatterEditor(doc, file.layout.quote))
  return renderArtifact(doc, file.layout, body)
}
