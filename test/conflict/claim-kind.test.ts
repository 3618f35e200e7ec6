import { describe, expect, test } from 'vitest'
import { claimKind, isPastVerb } from '../../src/conflict/read/claim-kind.js'
import { readText } from '../../src/conflict/read/reading.js'

// Issue 27, event27: the kind of claim a text makes, from its shape (tense, verb class, aspect).
describe('claim kind', () => {
  test.each([
    ['Jon painted his dog.', 'event'],
    ['Mira took her niece to the aquarium.', 'event'],
    ['The package was delivered on Thursday.', 'event'],
    ["Abena's A1C was 7.2.", 'state'],
    ['Sam lived in Leeds.', 'state'],
    ['Sam had lunch at Nandos.', 'event'],
    ['Sam had a Volvo.', 'state'],
    ['The shipment goes via FedEx.', 'state'],
    ['Gina lives in Paris.', 'state'],
    ['Kim moved to Berlin.', 'change'],
    ['Ines goes climbing three times a week.', 'habit'],
    ['Jon went to a yoga class every Sunday.', 'habit'],
    ['Caroline is thinking about adoption.', 'state'],
  ])('%s: %s', (text, kind) => {
    expect(claimKind(readText(text))).toBe(kind)
  })

  test('no past ends in -s: "goes" is a present', () => {
    expect(isPastVerb('went')).toBe(true)
    expect(isPastVerb('goes')).toBe(false)
  })
})
