import { stem } from '../read/stem.js'
import { alternatives, DETERMINER_WORDS } from './determiners.js'

/**
 * Retraction, cancellation and refusal: the event or state named beside them did not happen or no
 * longer holds. Matched on stems, so "cancelled", "cancels" and "cancel" are one cue.
 */
const RETRACT_WORDS =
  'cancel cancelled canceled scrap scrapped drop dropped remove removed retire retired revert reverted rollback ' +
  'decline declined deny denied refuse refused reject rejected veto vetoed abandon abandoned withdraw withdrew withdrawn ' +
  'stop stopped halt halted discontinue discontinued deprecate deprecated disable disabled mute muted block blocked ' +
  'ban banned forbid forbidden fail failed unpaid outstanding unsigned postpone postponed avoid avoids avoided ended ' +
  'revoke revoked waive waived rescind rescinded sunset sunsetted resign resigned'
export const RETRACTORS: ReadonlySet<string> = new Set(RETRACT_WORDS.split(' ').map(stem))

// Refusing, by a word's start (stems and forms alike). Two named lists, one apart from the other
// deliberately: refusing proper answers an offer ("offered Marisol the job" / "Marisol turned down
// the job" both hold: judge/checks/negation.ts); not taking part also withdraws or resigns from
// what one was in, and retracts the one who does it with what they leave ("Okoye declined our
// offer", "Ana resigned from the board": read/reading.ts).
const REFUSING_STARTS = ['declin', 'refus', 'reject']
/** Refusing proper: declining, refusing, rejecting ("turned down" is read as "rejected"). */
export const REFUSING: RegExp = new RegExp(`^(?:${REFUSING_STARTS.join('|')})`)
/** Not taking part: refusing, withdrawing, resigning. */
export const NOT_TAKING_PART: RegExp = new RegExp(`^(?:${[...REFUSING_STARTS, 'withdr', 'resign'].join('|')})`)

/**
 * Taking part: what a refusal ("declined", "refused", "rejected", "turned down") is against when it
 * retracts the one who refuses. "Okoye declined our offer" contradicts "we hired Okoye", not
 * "Okoye is from Lagos" or "the hospital offered Okoye the job".
 */
// A verb of taking part inside the request an offer or invitation makes ("offered Marisol the job
// and wanted her to start in three weeks", "asked him to join", "invited us to come") is what was
// asked, not that it was done: an offer and its refusal are a sequence (issue 27, second round).
export const TAKES_PART = /(?<!\b(?:wants?|wanted|wanting|ask(?:s|ed|ing)?|invit(?:es|ed|ing)|urg(?:es|ed|ing)|expect(?:s|ed|ing)?|hop(?:es|ed|ing)|needs?|needed|would\s+like|'d\s+like|offer(?:s|ed|ing)?)\s+(?:[\p{L}'’-]+\s+){0,2}to\s+)\b(?:hire[sd]?|hiring|join(?:s|ed|ing)?|accept(?:s|ed|ing)?|sign(?:s|ed|ing)?\s+(?:on|up)|start(?:s|ed|ing)?|took|take[sn]?|taking|agree[sd]?|attend(?:s|ed|ing)?|enroll(?:s|ed|ing)?|onboard(?:s|ed|ing)?|said\s+yes|works?\s+(?:at|for|with)|working\s+(?:at|for|with)|came|comes?|coming|went|goes|going|is\s+on|are\s+on|was\s+on)\b/iu

/** What a refusal answers: an offer, an invitation, a proposal, an application ("offered Marisol the job" / "Marisol turned down the job"). */
export const ASKED = /\b(?:offer(?:s|ed|ing)?|invit(?:e|es|ed|ing|ation)|propos(?:e|es|ed|ing|al)|appl(?:y|ies|ied|ying|ication)|interview(?:s|ed|ing)?|ask(?:s|ed|ing)?)\b/i

/** Multi-word retractions, rewritten to one marker word before tokenizing. */
export const RETRACT_PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:called|call|calling|calls)\s+off\b/gi, 'cancelled'],
  [/\b(?:turned|turns|turn|turning)\s+down\b/gi, 'rejected'],
  // "left the company" is a resignation; "left for vacation" is not.
  [/\b(?:left|leaves|leaving|quit|quits)\s+(?:the\s+|our\s+)?(company|team|firm|job|org|organi[sz]ation|group|startup)\b/gi, 'resigned from the $1'],
  // "pulled out of the demo", "dropped out", "backed out", "bowed out": a withdrawal.
  [/\b(?:pulled|pulls|pull|pulling|dropped|drops|drop|dropping|backed|backs|back|backing|bowed|bows|bow|opted|opts|opt)\s+out\b(?:\s+of\b)?/gi, 'withdrew'],
  [/\bno\s+longer\b/gi, 'not'],
  [/\b(?:rolled|rolling|roll|rolls)\s+back\b/gi, 'reverted'],
  // "took the sailboat out on Lake Dillon", "took the dog out for a walk": an outing, not a removal.
  [/\b(?:ripped|ripping|rip|took|taken|take|pulled|pull)\s+(\w+(?:\s+\w+)?)\s+out\b(?!\s+(?:across|around|along|for\s+(?:an?\s+)?(?:walk|ride|spin|sail|drive|run|dinner|lunch|breakfast|drinks|coffee)|(?:to|on)\s+(?:the\s+)?(?:lake|river|sea|ocean|bay|harbou?r|water|island|beach|trail|road|town|dinner|lunch|breakfast))\b)/gi, 'removed $1'],
  [/\b(?:turned|switched|turn|switch)\s+off\b/gi, 'disabled'],
  [/\bout\s+of\s+(?:service|order)\b/gi, 'broken'],
  [/\b(?:still\s+)?waiting\s+(?:on|for)\b/gi, 'unsigned'],
  [/\bhas\s+not\s+been\b/gi, 'not'],
  [/\bstop\s+(\w+ing)\b/gi, 'stop $1'],
  [/\bon\s+(?:time|schedule)\b/gi, 'ontime'],
  // "still on", "as planned", "going ahead": happening when planned; "pushed a week": delayed.
  [new RegExp(String.raw`\b(?:as\s+planned|still\s+on\b(?!\s+(?:${alternatives([...DETERMINER_WORDS, 'it'])})\b)|going\s+ahead|went\s+ahead|goes\s+ahead)`, 'gi'), 'ontime'],
  [/\b(?:pushed|bumped|slipped|pushed\s+back|pushed\s+out)\s+(?:by\s+)?(?:a|one|two|three|\d+)\s+(?:day|week|month)s?\b/gi, 'delayed'],
  [/\b(is|are|was|were|be|been)\s+(up)\b(?!\s+(?:to|for|by|from))/gi, '$1 online'],
  [/\b(is|are|was|were|be|been)\s+(down)\b(?!\s+(?:to|for|by|from))/gi, '$1 offline'],
  [/\b(?:can not|cannot|will not|won't|could not|couldn't|not going to)\s+make\s+it\b/gi, 'absent'],
  [/\b(?:can|will|could)\s+make\s+it\b/gi, 'attending'],
  [/\bout\s+of\s+(?:the\s+)?office\b|\bon\s+(?:leave|vacation|holiday|pto)\b/gi, 'away'],
  [/\b(is|are|am|was|were)\s+out\b(?!\s+(?:of|for|to|with|on)\b)/gi, '$1 away'],
  [/\b(?:is|are|am)\s+in\s+the\s+office\b|\bin\s+the\s+office\s+today\b/gi, 'is onsite'],
  [/\bunder\s+warranty\b/gi, 'warranted'],
  // "an open balance", "balance due": money still owed.
  [/\b(?:open|unpaid|remaining)\s+balance\b|\bbalance\s+(?:due|owed|owing)\b/gi, 'outstanding balance'],
  // "badges into the office", "comes into the Austin office every day": working on site.
  // ("only comes into the office for workshops" is an exception, not a way of working.)
  [/(?<!\b(?:only|sometimes|occasionally|rarely)\s+)\b(?:badges?|badged|badging|comes?|came|coming|goes|went|going|commutes?|commuting)\s+(?:in)?to\s+(?:the\s+)?(?:[A-Z]\w+\s+)?office\b/g, 'works onsite'],
  [/\bsold[-\s]out\b/gi, 'soldout'],
  [/\b(?:lost|loses|lose)\s+(access|permission|permissions|rights)\b/gi, 'revoked $1'],
  [/\berror(?:ed|s)?\s+out\b/gi, 'errored'],
  [/\b24\/7\b|\baround the clock\b/gi, 'always'],
  [/\b(\d+|some|a few)\s+((?:\w+\s+)?)left\b/gi, '$1 $2remaining'],
  [/\bwent\s+up\b|\bgone\s+up\b|\bgoes\s+up\b/gi, 'increased'],
  [/\bwent\s+down\b|\bgone\s+down\b|\bgoes\s+down\b/gi, 'decreased'],
]
