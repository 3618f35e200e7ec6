import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'

/**
 * One test per mechanism of the free-text detector, on sentences written for these tests (not
 * taken from the realistic pairs): each conflict beside a near pair that must stay unflagged, so a
 * mechanism that fires on everything fails as surely as one that fires on nothing.
 */
const detector = new TextConflictDetector()
const judge = (a: string, b: string) => detector.judge(a, b)

describe.each([
  // [mechanism, conflicting pair, pair that must not be flagged, reason pattern]
  ['names that start like a month are names', ["Marta's train arrives at 6:10pm", "marta's train gets in at 8:45pm"], ["Marta's train arrives at 6:10pm", "marta's train gets in at 18:10"], /time/],
  ['lower-case months beside a day number', ['the launch is on june 3', 'Launch date: June 5'], ['the launch is on june 3', 'Launch date: June 3rd'], /date/],
  ['compounds written open or hyphenated', ['The all-hands is at 4pm', 'all hands moved to 5pm'], ['The all-hands is at 4pm', 'all hands is at 16:00'], /time/],
  ['open until is a closing time', ['the bakery is open until 7pm', 'bakery closes at 5pm'], ['the bakery is open until 7pm', 'bakery closes at 7pm'], /time/],
  ['starting to learn is a beginner', ['Noa is an expert in Elixir', 'noa is just starting to learn elixir'], ['Noa is an expert in Elixir', 'noa has written Elixir for ten years'], /skill/],
  ['a differing modifier after one subject', ['Ivo is on the data team', 'ivo moved to the security team'], ['the data team meets Monday at 10', 'the security team meets Monday at 11'], /different answer/],
  ['two members of one answer class before one noun', ['Rhea wants an aisle seat', 'rhea asked for a window seat'], ['Rhea wants an aisle seat', 'rhea asked for an aisle seat near the front'], /seat/],
  ['two frequencies before one noun', ['the board wants quarterly reports', 'board asked for monthly reports'], ['the board wants quarterly reports', 'board asked for the quarterly reports by Friday'], /freq|quarterly|monthly/],
  ['a name that starts a sentence', ['Bogdan is the release manager', 'release manager this sprint is Ines'], ['Odile handles payroll', 'the Gusto payroll export failed twice'], /name/],
  ['marital status', ['Lars is married', 'lars is single'], ['Lars is married', 'lars got married in 2019'], /marital/],
  ['full-time against part-time', ['the role is full-time', 'that role is part-time'], ['the role is full-time', 'it is a full-time role'], /employment/],
  ['intact against damaged', ['the parcel arrived intact', 'parcel arrived damaged'], ['the parcel arrived intact', 'parcel arrived in one piece, intact'], /condition/],
  ['manual against automated', ['deploys are manual', 'deploys are automated'], ['deploys are manual', 'each deploy is a manual step'], /automation/],
  ['ways of addressing someone', ['answer the Okafor account in French', 'Okafor wants us to write in German'], ['answer the Okafor account in French', 'Okafor is based in Lyon'], /language/],
  ['a price of nothing', ['the museum has free entry', 'museum entry costs €12'], ['the museum has free entry', 'museum entry is free on Sundays'], /money/],
  ['date ranges compare whole', ['the fair runs Oct 3–5', 'fair is Oct 3 to Oct 6'], ['the fair runs Oct 3–5', 'see you at the fair on Oct 4'], /date|duration/],
  ['every other week is fortnightly', ['the newsletter goes out every other week', 'newsletter is weekly'], ['the newsletter goes out every other week', 'newsletter is biweekly'], /freq/],
  ['withdrawing from an event', ['Gwen is speaking at the summit', 'gwen dropped out of the summit'], ['Gwen is speaking at the summit', 'gwen flew out to the summit on Monday'], /negates or retracts/],
  ['a dislike against taking the thing', ['Mo hates olives', 'mo ordered extra olives'], ['Mo dislikes early calls', 'mo scheduled the early calls for Monday'], /olives/],
  ['identifiers in the same place', ['the bucket is in eu-central-1', 'bucket lives in us-west-2'], ['ticket ABC-12 is closed', 'ticket ABC-13 is closed'], /identifier/],
  ['a limit against a limit', ['the upload limit is 25 MB', 'uploads are capped at 10 MB'], ['files up to 25 MB are accepted', 'a 10 MB file uploaded fine'], /size/],
  ['orders of preference', ['Ayo prefers tea to coffee', 'ayo would rather have coffee than tea'], ['Ayo prefers tea to coffee', 'ayo would rather have tea than coffee'], /preference/],
  ['nights of a stay', ['booked 2 nights at the Fernhill inn', 'Fernhill: checking in on the 4th and out on the 7th'], ['booked 3 nights at the Fernhill inn', 'Fernhill: checking in on the 4th and out on the 7th'], /night/],
  ['zones in lower case after a time', ['demo at 9am pt', 'demo at 1pm et'], ['demo at 9am pt', 'demo at noon et'], /time/],
  ['payment methods are one class', ['pay the deposit by card', 'the deposit must be paid in cash'], ['pay the deposit by card', 'deposit paid by card on Monday'], /payment/],
  ['a negation of a kind reaches its members', ['Bruno does not drink alcohol', 'bruno ordered a glass of red wine'], ['Bruno does not drink alcohol', 'bruno ordered sparkling water'], /alcohol|wine/],
  ['a negated class member chooses nothing', ['the kiosk takes cash', 'the kiosk takes card'], ['the kiosk takes cash', 'the kiosk does not take card'], /payment/],
  ['a lone inch mark', ['the TV is 55 inches', 'that TV is a 65" panel'], ['the TV is 55 inches', 'a 55" TV, wall mounted'], /length/],
  ['"not open till" is an opening time', ['the pool opens at 7am', 'pool does not open till 9'], ['the pool opens at 7am', 'pool does not open till 7am'], /time/],
  ['kicks off is starts', ["Jin's talk starts at 2pm", "jin's talk kicks off at 3:30pm"], ["Jin's talk starts at 2pm", "jin's talk kicks off at 14:00"], /time/],
  ['showing up is coming', ['the electrician came Friday', 'electrician never showed up'], ['the electrician came Friday', 'electrician showed up Friday at 8'], /negates|came/],
  ['locked against unlocked', ['the side gate is locked', 'side gate is unlocked'], ['the side gate is locked', 'side gate is locked at night'], /locking|negates/],
  ['fixed against variable rates', ['the mortgage has a fixed rate', 'mortgage rate is variable'], ['the mortgage has a fixed rate', 'fixed rate mortgage, 25 years'], /rate-type/],
  ['quiet against noisy', ['Pia wants a quiet table', 'pia asked for a noisy table near the band'], ['Pia wants a quiet table', 'pia asked for a quiet corner table'], /loudness/],
  ['countries are one class', ['the supplier is based in Chile', "supplier's based out of Peru now"], ['the supplier is based in Chile', 'supplier office: Santiago'], /country/],
  ['a negating prefix', ['invoice 3390 is assigned to Omid', '3390 is unassigned'], ['invoice 3390 is assigned to Omid', '3390 assigned, omid is on it'], /unassigned/],
  ['no fee is a price of nothing', ['no delivery fee inside the city', 'city delivery costs $5'], ['delivery is free within the city', 'no delivery fee inside city limits'], /money/],
  ['days of a trip told by its ends', ['the Oslo trip is 5 days', 'Oslo trip: fly out the 9th, back the 11th'], ['the Oslo trip is 3 days', 'Oslo trip: fly out the 9th, back the 11th'], /duration/],
  ['a weekday within "this week"', ['the courier came Monday', 'courier never showed up this week'], ['the courier came Monday', 'courier came this week, on Monday'], /attendance|negates/],
  ['days that do not overlap are two facts', ['the depot is open on Saturdays', 'depot closed weekends'], ['the depot is open Monday to Friday', 'depot closed weekends'], /openness/],
  ['the simple past against "now"', ['Ines is at Shopify', 'ines is at Atlassian now'], ['Ines worked at Shopify for 3 years', 'ines is at Atlassian now'], /name/],
  ['a zone abbreviation pins its season', ['the cutover ran at 9:15am EDT', 'cutover ran at 14:15 UTC'], ['the cutover ran at 9:15am EDT', 'cutover ran at 13:15 UTC'], /time/],
  ['an offset in days from a stated day', ['(written Thu 5 Mar 2026) the vet visit is in 4 days', 'vet visit: Tue 10 Mar'], ['(written Thu 5 Mar 2026) the vet visit is in 4 days', 'vet visit: Mon 9 Mar'], /date/],
  ['volumes across units', ['the rain barrel holds 40 gallons', 'rain barrel: 100 litres'], ['the rain barrel holds 40 gallons', 'rain barrel: about 151 litres'], /volume/],
  ['pressures across units', ['inflate the bike tyres to 4 bar', 'bike tyre pressure: 80 psi'], ['inflate the bike tyres to 4 bar', 'bike tyre pressure: 58 psi'], /pressure/],
  ['counts per unit of time', ['the webhook sends 120 events/minute', 'webhook: 20 events per second'], ['the webhook sends 120 events/minute', 'webhook: 2 events per second'], /event/],
  ['amounts per periods of time', ['the storage unit costs $1,800 a year', 'monthly fee for the storage unit is $200'], ['the storage unit costs $1,800 a year', 'monthly fee for the storage unit is $150'], /money/],
  ['a month is 28 to 31 days', ['logs are kept for a month', 'log retention is 14 days'], ['logs are kept for a month', 'log retention is 30 days'], /duration/],
  ['check-out from a start and its nights', ['Lund cabin: 3 nights from Fri 12 Jun', 'lund cabin checkout sun 14 jun'], ['Lund cabin: 3 nights from Fri 12 Jun', 'lund cabin checkout mon 15 jun'], /date/],
  ['a zoned time moves its day to UTC', ['the patch window opens 9pm PST on the 3rd', 'patch window: 05:00 UTC on Mar 5'], ['the patch window opens 9pm PST on the 3rd', 'patch window: 05:00 UTC on Mar 4'], /date/],
  ['days of a check-in and a check-out are two facts', ['the Bergen rental: check-out Tue 9 Jun', 'Bergen rental check-out sat 6 jun'], ['the Bergen rental: check-out Tue 9 Jun', 'Bergen rental check-in sat 6 jun'], /date/],
  ['what an adjective is said of comes before it', ['the design repo is private since May', 'design repo is public on GitLab'], ['the design repo is private since May', 'design repo has 40 stars on GitLab'], /visibility/],
  ['a lapsed certificate against a certified person', ['Nell is a certified scuba instructor', "nell's instructor certificate lapsed, she did not renew"], ['Nell is a certified scuba instructor', 'nell renewed her instructor certificate'], /validity/],
  ['an open balance is owed', ['the Hobbs invoice has an open balance of $300', 'Hobbs invoice was paid'], ['the Hobbs invoice has an open balance of $300', 'Hobbs invoice: $300 still unpaid'], /payment|negates/],
  ['only one against whatever', ['write release notes in English only', 'release notes go out in whatever language the customer uses'], ['write release notes in English only', 'release notes go out in English'], /only/],
  ['an update verb gives the new answer of the subject', ['the book club meets on Mar 9', 'Book club moved to the 16th'], ['the book club meets on Mar 9', 'Book club moved to the 9th, same room'], /date/],
  ['one identifier of a shape on each side, after a label', ['logs bucket region: eu-central-1', 'the logs s3 bucket lives in ap-south-1 now'], ['logs bucket region: eu-central-1', 'the logs s3 bucket lives in eu-central-1'], /identifier/],
  ['a verb after a modal and a unit after a number are no modifiers', ['Ilse plays cello from sheet music', 'ilse cannot read music'], ['Ilse plays cello from sheet music', 'Ilse can read music'], /negates/],
  ['WordNet antonyms said of one thing', ['the rain gauge is empty', 'rain gauge is full again'], ['the empty rain gauge is by the shed', 'the full rain gauge is by the gate'], /empty\/full/],
  ['WordNet noun classes are one answer', ['the new armchair is linen', 'the new armchair is velvet'], ['the new armchair is linen', 'the new armchair is linen, pale grey'], /fabric/],
  ['relative dates of two units that cannot meet', ['the roof inspection is today', 'roof inspection got moved to next week'], ['the roof inspection is tomorrow', 'roof inspection is next week, Monday'], /date/],
  ['a reopened incident is not resolved', ['INC-88 resolved at 14:02', 'inc-88 reopened, errors are back'], ['INC-88 resolved at 14:02', 'inc-88 resolved, postmortem Friday'], /bugstate/],
  ['kosher and halal diets', ['Ezra keeps kosher', "ezra's usual order is the bacon roll"], ['Ezra keeps kosher', "ezra's usual order is the egg roll"], /kosher/],
  ['a name said not to be the one chooses nothing', ['send invoices by Email', 'send invoices by Fax'], ['send invoices by Email', 'send invoices by Email, not Fax'], /name/],
  ['two sides of a time bound are two facts', ['no deliveries after 6pm', 'deliveries after 6pm are fine'], ['no deliveries after 6pm', 'deliveries only before 6pm'], /negates/],
  ['fuel economy across units', ['the van does 25 mpg', 'the van uses 12 L/100km'], ['the van does 25 mpg', 'the van uses about 9.4 L/100km'], /economy/],
  ['hours against around the clock', ['the help desk hours are 8–6 CET', 'help desk is staffed 24/7'], ['the help desk hours are 8–6 CET', 'help desk is staffed 8am to 6pm'], /around the clock/],
  ['a time without a zone is read in the other side\'s zone', ['the standup is 9:30 ET', 'standup is at 10:30'], ['the standup is 9:30 ET', 'standup is at 9:30'], /time/],
  ['opposite stances toward one thing', ['Omar enjoys his Peloton rides', "omar gave up on the Peloton, it's a coat rack now"], ['Omar enjoys his Peloton rides', "omar's Peloton got a new seat"], /stance/],
  ['areas across units', ['the studio is 40 m²', 'studio: 600 sq ft'], ['the studio is 40 m²', 'studio: 430 sq ft'], /area/],
  ['a dotted clock time', ['the ferry leaves at 7.45am', 'ferry leaves 8:30'], ['the ferry leaves at 7.45am', 'ferry leaves 7:45'], /time/],
  ['a Z after a clock time is UTC', ['the backup runs at 02:30Z', 'backup runs at 3:30am UTC'], ['the backup runs at 02:30Z', 'backup runs at 2:30am UTC'], /time/],
  ['a capitalized value after a label is a name', ['the retreat is in Boulder', 'retreat location: Tahoe'], ['the retreat is in Boulder', 'retreat location: Boulder'], /name/],
  ['adverbs after a verb are not its object', ['the dishwasher works fine', 'dishwasher is broken again'], ['the dishwasher works fine', 'the dryer is broken again'], /state/],
  ['joining and starting at a job are one attribute', ['Noor joined the company in 2018', 'noor started here in 2020'], ['Noor joined the company in 2018', 'noor started the Lisbon office in 2020, two years after joining'], /date/],
  ['never having done a thing is no skill at it', ['Tove is an expert skier', 'tove has never skied'], ['Tove is an expert skier', 'tove skied in Norway last winter'], /skill|negates/],
  ['night owls and early birds', ['Remy is a night owl', 'remy is an early bird'], ['Remy is a night owl', 'remy is a night owl, codes best after 10pm'], /time-of-day/],
  ['someone of a person\'s is another subject', ['Ines loves opera', 'ines hates opera'], ['Ines loves opera', "ines's husband hates opera"], /preference|negates/],
  ['lactose intolerance and gluten-free diets', ['Yara is lactose intolerant', 'yara has a milkshake every Friday'], ['Yara is lactose intolerant', 'yara has an oat shake every Friday'], /lactose/],
  ['a capacity is a most', ['the hall holds 80 people', 'the hall fits 120 people'], ['the hall holds 80 people', 'we expect 60 guests in the hall'], /person/],
  ['a range of weekdays holds its days', ['the clinic is open Saturday', 'clinic hours: Mon–Fri'], ['the clinic is open Saturday', 'clinic hours: Tue–Sat'], /date/],
  ['days said to be off are not the days of the thing', ['the bakery is closed on Mondays', 'bakery: open Mondays'], ['the bakery is closed on Mondays', 'bakery hours: Tue–Sun'], /openness|date/],
  ['an end with a date is a schedule, not a retraction', ['the promo ends Friday', 'promo ends Sunday'], ['the promo ends Friday', 'the promo started Monday'], /date/],
  ['opposites said of two places are two facts', ['the signal in the kitchen is weak', 'signal in the kitchen is strong'], ['the signal in the kitchen is weak', 'the signal in the garden is strong'], /strong|weak/],
  ['a rule against a weekday and doing it on one', ['never release on Thursdays', 'we shipped v4 this Thursday morning'], ['never release on Thursdays', 'the Thursday retro was moved to 3pm'], /rules out/],
  ['still on against pushed back', ['the town hall got pushed a week', 'town hall is still on for Thursday'], ['the town hall got pushed a week', 'town hall pushed to next Thursday'], /punctuality/],
  ['meals and countries before one noun say which thing', ['the team lunch is at noon', 'team lunch moved to 1pm'], ['the lunch order is 12 wraps', 'the dinner order is 8 pizzas'], /time/],
  ['a year before a noun after a determiner is a year', ['the 2025 budget is $80k', 'the 2025 budget is $95k'], ['the 2024 budget was $80k', 'the 2025 budget is $95k'], /money/],
  ['values for days that do not meet', ['the pool opens at 7 on weekdays', 'pool opens at 8 on weekdays'], ['the pool opens at 7 on weekdays', 'pool opens at 9 on weekends'], /time/],
  ['label numbers said of two things', ['Ola merged PR 310', 'Ola merged PR 312'], ['Ola reviewed PR 310', 'Ola merged PR 312'], /pr/],
  ['another name and an opposite word are two subjects', ['the depot in Leeds is full', 'the depot in Leeds is empty'], ['the depot in Leeds is full', 'the depot in York is empty'], /full|empty/],
  ['the last and the next occurrence', ['the next service is booked for June 2026', 'next service: August 2026'], ['the next service is booked for June 2026', 'last one was in December 2025'], /date/],
  ['a negation bounded by a time', ['Mika avoids caffeine after 2pm', 'mika has a latte at 5pm every day'], ['Mika avoids caffeine after 2pm', 'mika has a latte at 9am every day'], /negates/],
  ['counts written with a hyphen', ['indent with 2-space tabs in this repo', 'this repo indents with 4-space tabs'], ['indent with 2-space tabs in this repo', 'this repo indents with 2 spaces'], /space/],
  ['speaking some of a language is a beginner\'s', ['Otto speaks some Greek', 'otto is fluent in Greek'], ['Otto speaks Greek', 'otto is fluent in Greek'], /skill/],
  ['owning against an allergy', ['Vera is allergic to dogs', 'vera adopted a dog in May'], ['Vera is allergic to dogs', "vera's neighbour adopted a dog in May"], /negates/],
  ['a range of amounts holds its inside', ['the build takes 12 minutes', 'build takes 20-25 min'], ['the build takes 12 minutes', 'build takes about 10-15 min'], /duration/],
  ['a waived fee is not paid', ['students pay the lab fee', 'the lab fee is waived for students'], ['the lab fee is waived for students', 'students do not pay the lab fee'], /negates/],
  ['the other side states the same timed pole too', ['the pharmacy opens at 8', 'the pharmacy is closed at 8'], ['the pharmacy opens at 8', 'the pharmacy opens at 8am and closes at 8pm'], /openness/],
  ['parallel clauses about different subjects', ['dev uses Node 18; prod uses Node 20', 'prod still runs node 18'], ['dev uses Node 18; prod uses Node 20', 'prod runs node 20'], /node/],
  ['a parenthesis does not end what a value is said of', ['invoice 5512 was paid on 4/2', 'Kroll paid invoice 5512 in full ($900) on 4/20'], ['invoice 5512 was sent on 4/2', 'Kroll paid invoice 5512 in full ($900) on 4/20'], /date/],
  ['an ongoing behaviour is no retraction', ['the hallway light works', 'hallway light failed'], ['Ari fixed the hallway light', 'hallway light keeps failing, Ari is on it'], /negates|outcome/],
  ['the day after tomorrow', ['(Tue 4 Mar) the audit is the day after tomorrow', 'audit on Fri 7 Mar'], ['(Tue 4 Mar) the audit is the day after tomorrow', 'audit on Thu 6 Mar'], /date/],
  ['the end of a term from its start and length', ['the guarantee is 3 years from delivery (Jun 2023)', 'guarantee expires Jun 2027'], ['the guarantee is 3 years from delivery (Jun 2023)', 'guarantee expires Jun 2026'], /date/],
  ['weeks counted between the days of a range', ['the course runs 8 weeks', 'course runs Feb 2 to Apr 20'], ['the course runs 8 weeks', 'course runs Feb 2 to Mar 30'], /duration/],
  ['rescinded, sunset, turned down, left the company', ['Pia is still with the company', 'pia left the company in April'], ['Pia is still with the company', 'pia left for Lisbon in April'], /negates/],
  ['a retracted thing with a number is that one', ['Python 2 was sunset in 2020', 'the Python 2 service is still running'], ['Python 2 was sunset in 2020', 'the Python service is down'], /negates/],
  ['British and American spellings are one word', ["Ada's favourite colour is green", 'ada says her favorite color is purple'], ["Ada's favourite colour is green", 'ada says her favorite color is green'], /color/],
  ['formal against casual', ['the client prefers formal emails', 'the client wants casual emails'], ['the client prefers formal emails', 'the client wants formal, short emails'], /register/],
  ['a frequency adverb is no modifier', ['Leo always orders a latte', 'leo usually orders a cortado'], ["Leo's go-to order is a latte", 'leo usually orders a latte, extra hot'], /drink/],
  ['a retraction is of the thing, not of the phrase after it', ['the 7am ferry to Hull is cancelled', 'the 7am ferry to Hull is running'], ['the 7am ferry to Hull is cancelled', 'the Hull office opens at 7am'], /negates/],
  ['a price per head is not the total', ['the tour costs $90 per person', 'the tour costs $120 per person'], ['the tour costs $90 per person', 'the tour costs $180 for the two of us'], /money/],
  ['an update verb states the present', ['the design review got rescheduled to next week', 'design review is today at 4'], ['the design review got rescheduled to next week', 'design review is next week, Thursday'], /date/],
  ['another named place after one verb and preposition', ['omar lands at heathrow at 9:10', "Omar's flight lands at LGW 9:10am"], ['omar lands at heathrow at 9:10', 'omar lands at Heathrow T5 at 9:10'], /place/],
] as const)('%s', (_name, [a, b], [c, d], reason) => {
  test('flags the contradiction, with a reason', () => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(true)
    expect(v.reason).toMatch(reason)
    expect(judge(b, a).conflict).toBe(true)
  })
  test('leaves the other pair alone', () => {
    const v = judge(c, d)
    expect(v.conflict, v.reason).toBe(false)
  })
})

describe('past against present, per clause', () => {
  test('what held then and what holds now are both true', () => {
    expect(judge('Tove used to dislike tea', 'tove loves tea now').conflict).toBe(false)
  })
  test('a past clause beside a present one still states the present', () => {
    expect(judge('Juno knows Swift well, built apps at her last job', 'juno has never used swift').conflict).toBe(true)
  })
})

describe('half a day', () => {
  test('is not read as a day', () => {
    expect(judge('the course is half a day', 'course runs 1pm to 5pm').conflict).toBe(false)
  })
})

describe('regressions found on the template sets and the bench sentences', () => {
  test.each([
    ['Wednesday and Saturday never make a topic', 'yoga on Wednesday at 6pm', 'the Wednesday release ships at 9am'],
    ['two parts of the day are two facts', 'the side gate is locked at night', 'side gate is unlocked during the day'],
    ['a check-in time is no stay', 'check-in starts at 3pm', 'check-out is by 10am'],
    ['"no free" is no price of nothing', 'the venue has no free parking', 'parking at the venue is not free'],
    ['two texts that open with different full names are about two people', 'Mara Quist has a dentist appointment on Monday', 'Mara Lind has a dentist appointment on Friday'],
    ['two texts that open with different names are about two people', 'Tobias speaks fluent Dutch and helps with translations', 'Ilka speaks fluent Danish and helps with translations'],
  ])('%s', (_name, a, b) => {
    expect(judge(a, b).conflict, judge(a, b).reason).toBe(false)
  })
})

test('a name that opens one text and is named in the other is one subject', () => {
  expect(judge('Bruna is the project lead for Kestrel', 'Kestrel is led by Anouk').conflict).toBe(true)
})

describe('the WordNet lexicon (src/conflict/words/wordnet.ts, scripts/make-conflict-lexicon.ts)', () => {
  test('every antonym line has two poles, no word on both, and no function word', async () => {
    const { WORDNET_ANTONYMS } = await import('../../src/conflict/words/wordnet.js')
    const { STOPWORDS } = await import('../../src/conflict/words/stopwords.js')
    const lines = WORDNET_ANTONYMS.split('\n')
    expect(lines.length).toBeGreaterThan(50)
    for (const line of lines) {
      const [pos, neg] = line.split('|').map((side) => side.split(' ').filter(Boolean))
      expect(pos!.length, line).toBeGreaterThan(0)
      expect(neg!.length, line).toBeGreaterThan(0)
      expect(pos!.some((w) => neg!.includes(w)), line).toBe(false)
      expect([...pos!, ...neg!].some((w) => STOPWORDS.has(w)), line).toBe(false)
    }
  })
  test('no noun is in two classes', async () => {
    const { WORDNET_CLASSES } = await import('../../src/conflict/words/wordnet.js')
    const seen = new Map<string, string>()
    for (const line of WORDNET_CLASSES.split('\n')) {
      const [name, words] = line.split(':') as [string, string]
      for (const w of words.split(' ')) {
        expect(seen.get(w), `${w} in ${name} and ${seen.get(w)}`).toBeUndefined()
        seen.set(w, name)
      }
    }
  })
})
