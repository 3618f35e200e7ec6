/**
 * The hand-written antonym groups, as data. words/poles.ts merges them with WordNet's
 * (words/wordnet.ts) in one place; add a word here, in the group whose opposite it names.
 */

/**
 * The groups of ANTONYM_GROUPS whose poles are said of a person ("fluent", "away", "married");
 * the others are said of a thing (a task is finished, a build broken, an invoice paid), so a person
 * both texts share is not yet the thing they oppose (judge/claim-frame.ts, fifth round).
 */
export const SAID_OF_PEOPLE: ReadonlySet<string> = new Set(['skill', 'availability', 'attendance', 'marital', 'punctuality', 'time-of-day', 'sex', 'spice', 'units', 'length', 'preference'])

/**
 * Antonym groups: `positive words | negative words`. Two texts that use one group with opposite
 * poles (after negation) disagree. Stems are compared, so list one form of each word.
 */
export const ANTONYM_GROUPS = `
outcome: pass passed approve approved accept accepted carried won win granted succeeded success merged signed delivered hired issued confirmed | fail failed reject rejected decline declined denied lost refused unsigned pending awaiting errored
requirement: required mandatory compulsory obligatory | optional voluntary
bugstate: fixed resolved solved patched | reproduces reproducible unresolved regressed persists reopened
validity: valid warranted insured certified licensed accredited current | expired lapsed invalid
switch: enabled enable activated active | disabled disable deactivated inactive
state: online working operational healthy | offline broken crashed outage unhealthy
attendance: attending attend coming joining | absent skipping missing
availability: available onsite | busy unavailable away ooo sick
stockage: remaining | soldout
direction: increased increase rose rise rising grew grow growing climbed raised higher | decreased decrease fell fall falling shrank lowered lower cut reduced
progress: finished complete completed done | running ongoing unfinished incomplete progress
visibility: public open-source | private internal
payment: paid settled | unpaid outstanding owed due
shade: dark | light bright
length: long long-form detailed verbose lengthy | short brief concise terse
time-of-day: early earliest morning | late latest evening
spice: spicy hot | mild
units: metric celsius kilometres kilometers km kg | imperial fahrenheit miles mile pounds lbs feet
access: read-write write push admin | read-only readonly
inclusion: including included inclusive | excluding excluded exclusive top extra plus
stock: plenty available in-stock | sold-out out-of-stock
skill: fluent expert experienced great strong proficient advanced native skilled wizard seasoned senior principal veteran master grandmaster guru | beginner novice junior newbie struggles struggle weak poor rusty inexperienced
openness: open opens opened reopened | closed close closes shut
punctuality: ontime punctual | delayed late overdue behind
marital: married | single unmarried divorced
condition: intact undamaged pristine | damaged defective faulty dented cracked
automation: manual manually stick | automatic automated automatically
locking: locked | unlocked
rate-type: fixed | variable floating adjustable
sex: female girl | male boy
loudness: quiet silent calm | noisy loud noise lively
employment: full-time fulltime permanent | part-time parttime temporary freelance interim
workplace: remote remotely wfh | onsite in-office
setting: indoor indoors inside | outdoor outdoors outside
life: alive living | dead deceased
permission: allowed permitted | forbidden prohibited banned
occupancy: vacant | occupied taken
synchrony: synchronous sync | asynchronous async
register: formal | casual informal
`

/**
 * Working memory's claim comparator reads its own groups, a second list kept apart on purpose
 * (issue 27): its groups cut English another way (up/down is a service's state, left/right a
 * hand, yes/no an answer, a full battery against a dead one), and it aligns two claims word by
 * word, where a shared group decides the one slot they differ in. Folding them into the groups
 * above would change which pairs working memory flags (its realistic dev figures are measured
 * with these), so they stay a second named list, merged in words/poles.ts like the first.
 */
/**
 * Polarity groups: each line is `name: positive words | negative words`. Two observations that use
 * the same group with opposite polarity (after negation) disagree: "up" vs "down", "passed" vs
 * "failed"; "not open" agrees with "closed".
 */
export const CLAIM_POLARITY_GROUPS = `
status: up online running operational reachable healthy | down offline unavailable unreachable crashed dead broken unhealthy outage
success: pass passed passing succeed succeeded success successful | fail failed failing failure unsuccessful
visibility: public | private internal restricted
openness: open opened opens reopened | closed close closes shut
resolution: open opened unresolved pending reopened | resolved fixed done closed
enablement: enabled enable enables active activated | disabled disable disables inactive deactivated
availability: available free | busy unavailable booked occupied away
temperature: hot warm heated | cold cool chilly freezing
fullness: full | empty
charge: charged full | empty dead drained flat
approval: approved approve approves accepted accept accepts granted allowed allow allows permitted permit | rejected reject rejects declined decline denied deny refused refuse forbidden forbid banned ban
direction: up increased increase increases rose rise rises grew grow grows higher raised gained | down decreased decrease decreases fell fall falls dropped drop drops shrank shrink shrinks lower declined lost
growth: grew grow grows growing expanded | shrank shrink shrinks shrinking contracted
locking: locked lock | unlocked unlock
security: secure safe | insecure unsafe
synchrony: synchronous sync blocking | asynchronous async nonblocking non-blocking
passability: passable | impassable blocked
handedness: left | right
answer: yes true correct | no false incorrect wrong
stability: deterministic stable reliable consistent | flaky nondeterministic non-deterministic unstable unreliable intermittent
completion: completed complete finished done | aborted cancelled canceled incomplete interrupted unfinished
balance: balanced | imbalanced unbalanced
workplace: onsite office | remote remotely
loudness: quiet silent | noisy loud
punctuality: ontime punctual | delayed late overdue
size: large big huge | small tiny little
speed: fast quick | slow
presence: present included include includes contains contain | absent missing excluded exclude excludes lacks lack
validity: valid | invalid expired
continuation: still continues ongoing | nolonger ended discontinued deprecated stopped retired
payment: paid | unpaid outstanding
`
