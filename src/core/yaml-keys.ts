import { YAMLParseError, isMap, isPair, isScalar, isSeq, type Document, type LineCounter } from 'yaml'

/**
 * YAML parse options for untrusted input: yaml's own duplicate-key check (`uniqueKeys: true`, its
 * default) compares each new key with every earlier key of the map, so a mapping of n keys costs
 * n²/2 comparisons (issue 13: 30 s at 80k frontmatter keys, minutes at 1M). It is turned off here
 * and `addDuplicateKeyErrors` does the same check with one Set per map.
 */
export const LINEAR_KEYS = { uniqueKeys: false } as const

/**
 * Adds the errors yaml's `uniqueKeys: true` would have raised (code DUPLICATE_KEY, "Map keys must
 * be unique", at the repeated key) to `doc.errors`, in linear time. Two keys are the same when
 * both are scalars with the same value, yaml's rule. Walks the tree with an explicit stack, so a
 * deeply nested document cannot overflow the call stack here.
 */
export function addDuplicateKeyErrors(doc: Document, lineCounter?: LineCounter): void {
  const stack: unknown[] = [doc.contents]
  while (stack.length > 0) {
    const node = stack.pop()
    if (isMap(node)) {
      const keys = new Set<unknown>()
      for (const pair of node.items) {
        const key = pair.key
        if (isScalar(key)) {
          if (keys.has(key.value)) doc.errors.push(duplicate(key.range?.[0] ?? 0, lineCounter))
          else keys.add(key.value)
        }
        stack.push(key, pair.value)
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item)
    } else if (isPair(node)) {
      stack.push(node.key, node.value)
    }
  }
}

function duplicate(offset: number, lineCounter: LineCounter | undefined): YAMLParseError {
  const err = new YAMLParseError([offset, offset + 1], 'DUPLICATE_KEY', 'Map keys must be unique')
  if (lineCounter) {
    const { line, col } = lineCounter.linePos(offset)
    err.linePos = [{ line, col }]
  }
  return err
}
