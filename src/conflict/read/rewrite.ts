/** A rewrite rule: every match of the pattern (global) is replaced, as `String.prototype.replace` does. */
export type RewriteRule = readonly [RegExp, string | ((match: string, ...groups: any[]) => string)]

/**
 * Applies rewrite rules in order, as `for (const [re, to] of rules) text = text.replace(re, to)`
 * does, and with the same result: a text that none of the patterns matches is returned as it is,
 * after one test of a pattern that joins them (one per set of flags), instead of one pass per
 * rule. Most texts match no rule of a list (shorthand, phrasal verbs, retraction phrases), and the
 * lists are read for every text the conflict detector reads (issue 31). A text that matches one
 * pattern goes through every rule in order, as before, since one rule's output may be another's
 * input.
 *
 * A pattern with a backreference or a named group keeps a test of its own (joined, its numbering
 * or names would change).
 */
export function rewriter(rules: readonly RewriteRule[]): (text: string) => string {
  const groups = new Map<string, string[]>()
  const own: RegExp[] = []
  for (const [re] of rules) {
    const flags = re.flags.replace(/[gy]/g, '')
    if (/\\[1-9]|\\k<|\(\?<[^=!]/.test(re.source)) own.push(new RegExp(re.source, flags))
    else groups.set(flags, [...(groups.get(flags) ?? []), `(?:${re.source})`])
  }
  const hints = [...[...groups].map(([flags, sources]) => new RegExp(sources.join('|'), flags)), ...own]
  return (text) => {
    if (!hints.some((h) => h.test(text))) return text
    for (const [re, to] of rules) text = typeof to === 'string' ? text.replace(re, to) : text.replace(re, to)
    return text
  }
}
