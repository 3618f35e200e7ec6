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
