import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  HARNESS_BEGIN, HARNESS_END, applyHarnessBlock, defaultHarnessContent, findHarnessBlock, removeHarnessBlock,
} from '../../src/small/agents-md.js'
import { isMemweaveError } from '../../src/core/errors.js'

const block = (content: string) => `${HARNESS_BEGIN}\n${content}\n${HARNESS_END}`

function refused(fn: () => unknown, words: RegExp): void {
  try {
    fn()
  } catch (err) {
    expect(isMemweaveError(err) && err.code).toBe('INVALID_ARGUMENT')
    expect((err as { details: { rule: string } }).details.rule).toBe('agents-md-block')
    expect((err as Error).message).toMatch(words)
    return
  }
  throw new Error('expected a refusal')
}

describe('AGENTS.md bounded block (SMALL.md "AGENTS.md Semantics")', () => {
  const mine = '# Project notes\n\nDo not touch the database.\n'

  test('append, prepend and overwrite a file without a block', () => {
    expect(applyHarnessBlock(mine, 'X', 'append')).toBe(`${mine}\n${block('X')}\n`)
    expect(applyHarnessBlock(mine, 'X', 'prepend')).toBe(`${block('X')}\n\n${mine}`)
    expect(applyHarnessBlock(mine, 'X', 'overwrite')).toBe(`${block('X')}\n`)
    expect(applyHarnessBlock(null, 'X', 'append')).toBe(`${block('X')}\n`)
    expect(applyHarnessBlock('no newline', 'X')).toBe(`no newline\n\n${block('X')}\n`)
  })

  test('an existing block is replaced in place whatever the mode (except overwrite), the rest untouched', () => {
    const file = `intro\n\n${block('old\nlines')}\n\noutro\n`
    for (const mode of ['append', 'prepend'] as const) {
      expect(applyHarnessBlock(file, 'new', mode)).toBe(`intro\n\n${block('new')}\n\noutro\n`)
    }
    expect(applyHarnessBlock(file, 'new', 'overwrite')).toBe(`${block('new')}\n`)
    expect(findHarnessBlock(file)?.content).toBe('old\nlines')
    expect(applyHarnessBlock(applyHarnessBlock(file, 'new'), 'new')).toBe(applyHarnessBlock(file, 'new')) // idempotent
  })

  test('CRLF files get CRLF blocks', () => {
    expect(applyHarnessBlock('a\r\nb\r\n', 'x\ny')).toBe(`a\r\nb\r\n\r\n${HARNESS_BEGIN}\r\nx\r\ny\r\n${HARNESS_END}\r\n`)
  })

  test('two blocks, a lone marker or a marker of another version is an error, and nothing is guessed', () => {
    refused(() => applyHarnessBlock(`${block('a')}\n${block('b')}\n`, 'x'), /2 SMALL harness blocks/)
    refused(() => applyHarnessBlock(`${HARNESS_BEGIN}\nno end\n`, 'x'), /not closed/)
    refused(() => applyHarnessBlock(`text\n${HARNESS_END}\n`, 'x'), /without/)
    refused(() => applyHarnessBlock('<!-- BEGIN SMALL HARNESS v0.9.0 -->\nold\n<!-- END SMALL HARNESS v0.9.0 -->\n', 'x'), /version "0\.9\.0"/)
    refused(() => applyHarnessBlock(`${block('a')}\n${block('b')}\n`, 'x', 'overwrite'), /2 SMALL harness blocks/)
    refused(() => applyHarnessBlock(mine, `evil ${HARNESS_END}`), /must not contain/)
  })

  test('remove takes the block out and leaves the rest', () => {
    const file = applyHarnessBlock(mine, defaultHarnessContent())
    expect(removeHarnessBlock(file)).toBe(mine)
    expect(removeHarnessBlock(mine)).toBe(mine)
  })

  // Text that cannot contain a marker (no "<!--").
  const prose = fc.string({ maxLength: 300 }).map((s) => s.replace(/<!--/g, '<!-'))

  test('property: content outside the block is never modified', () => {
    fc.assert(
      fc.property(prose, prose, prose, prose, (before, after, oldContent, newContent) => {
        const file = `${before}${HARNESS_BEGIN}\n${oldContent}\n${HARNESS_END}${after}`
        const out = applyHarnessBlock(file, newContent)
        return out.startsWith(before) && out.endsWith(after) && findHarnessBlock(out) !== null
      }),
      { numRuns: 300 },
    )
  })

  test('property: appending to a file without a block keeps it as a prefix; prepending as a suffix', () => {
    fc.assert(
      fc.property(prose, prose, (existing, content) => {
        const a = applyHarnessBlock(existing, content, 'append')
        const p = applyHarnessBlock(existing, content, 'prepend')
        return a.startsWith(existing) && (existing === '' || p.endsWith(existing))
      }),
      { numRuns: 300 },
    )
  })
})
