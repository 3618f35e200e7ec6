/** Realistic fact rows for the client benchmark: a sentence of 60-120 characters, varied topics. */
const SUBJECTS = ['Aria', 'Bruno', 'Chen', 'Dara', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jun']
const THINGS = ['the quarterly report', 'a trip to Lisbon', 'the new espresso machine', 'the garden shed', 'a chess tournament', 'the release checklist', 'a pottery class', 'the team offsite', 'the budget spreadsheet', 'a marathon']
const VERBS = ['is planning', 'finished reviewing', 'keeps forgetting about', 'asked questions about', 'wants to reschedule', 'wrote notes on']

export function factRow(i: number, salt: string): { id: string; content: string } {
  const content = `${SUBJECTS[i % 10]} ${VERBS[i % 6]} ${THINGS[(i * 7) % 10]} (note ${i} ${salt}) before the ${1 + (i % 28)}th.`
  return { id: `${salt}-${i}`, content }
}

export const QUERIES = [
  'what is Aria planning', 'Lisbon trip', 'espresso machine', 'garden shed notes', 'chess tournament',
  'release checklist review', 'pottery class', 'team offsite', 'budget spreadsheet', 'marathon training',
  'who reviewed the quarterly report', 'reschedule', 'Farah questions', 'Hana notes', 'Jun forgetting',
]

const hex32 = (i: number, salt: number): string => {
  let out = ''
  for (let k = 0; k < 4; k++) out += (Math.imul(i + 1, 2654435761) ^ Math.imul(salt + k + 1, 40503)).toString(16).padStart(8, '0').slice(-8)
  return out
}

/**
 * The row memweave stores for `factRow(i, salt)`'s content, field for field (an unsigned fact of
 * plain text, as the client bench writes them: a 32-hex id, the body with its fact id, times,
 * empty metadata and source, a log clock), about 430 bytes as JSON against factRow's 160: the
 * like-for-like baseline for bulkPut and for open + read (issue 31).
 */
export function storedRow(i: number, salt: string): { id: string; kind: 'fact'; tenant: null; body: Record<string, unknown>; author: null; hlc: string } {
  const s = salt.length * 131 + salt.charCodeAt(0)
  const micros = 1_795_825_897_177_004 + i
  return {
    id: hex32(i, s),
    kind: 'fact',
    tenant: null,
    body: {
      content: factRow(i, salt).content,
      factId: hex32(i, s + 7),
      structuredId: null,
      metadata: {},
      validFrom: micros,
      writtenAt: micros,
      supersedes: null,
      source: { writtenBy: null, signature: null, publicKey: null },
    },
    author: null,
    hlc: `01a21f908ed9.${i.toString(16).padStart(6, '0')}.${hex32(i, s + 3).slice(0, 8)}`,
  }
}
