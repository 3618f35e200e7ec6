import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays, freeTextFlags, readProbes } from '../helpers/conflict-probes.js'

/**
 * Issue 27, session 10 (names27): "different name in the same place" only for one slot and one
 * kind (src/conflict/judge/name-role.ts). dev2 flagged "works as a court interpreter in X" /
 * "will be in Y", a quoted song title against a grandson's name, and a baby's second given name
 * against the town she is to be met in. The probes are paraphrases written apart from that data.
 */
const fixture = readProbes<'slot' | 'kind'>('conflict-name-role-probes.json')
const detector = new TextConflictDetector()

describe('conflict name role: two names of two slots or two kinds are not flagged', () => {
  test.each(fixture.compatible.map((p) => [p.rule!, p.a, p.b] as const))('%s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })
})

describe('conflict name role: two names of one slot and one kind stay flagged', () => {
  test.each(fixture.conflict.map((p) => [p.a, p.b] as const))('%s / %s', (a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })
})

describe('conflict name role: in a store', () => {
  test('a home, a trip and a title beside one person give no flag; a second home does', async () => {
    const calm = await freeTextFlags([
      { content: 'Yara works as a paramedic in Halifax.' },
      { content: 'Yara will be in Lisbon.' },
      { content: 'Yara read "Persuasion" on the ferry.' },
      { content: 'Yara read to Tomasz on the ferry.' },
    ])
    expect(calm).toEqual([])
    const moved = await freeTextFlags([{ content: 'Yara lives in Halifax.' }, { content: 'Yara lives in Moncton.' }])
    expect(moved).toHaveLength(1)
    expect(moved[0]).toMatch(/different name in the same place: "Moncton" vs "Halifax"|"Halifax" vs "Moncton"/)
  })
})
