import { isMemweaveError } from '../../src/index.js'

/**
 * Errors as a person reads them: what happened and what to do, chosen by the error's `code` (and
 * the field it names), never by its message. The technical text stays available as `detail`.
 */

export interface HumanError {
  readonly title: string
  readonly hint: string
  /** `CODE: message`, for whoever wants to report it. */
  readonly detail: string | null
}

/** An error the demo itself raises, already worded for a person. */
export class DemoError extends Error {
  readonly hint: string
  constructor(title: string, hint: string) {
    super(title)
    this.name = 'DemoError'
    this.hint = hint
  }
}

const BY_FIELD: Record<string, HumanError> = {
  agentDid: { title: 'That is not an agent ID.', hint: 'An agent ID starts with "did:key:z6Mk". Copy it with the Copy button on the other device\'s "You" card.', detail: null },
  name: { title: 'That name is not accepted.', hint: 'Use a shorter name, in plain text.', detail: null },
}

const BY_CODE: Record<string, Omit<HumanError, 'detail'>> = {
  INVALID_ARGUMENT: { title: 'Some of what you typed was not accepted.', hint: 'Check the fields and try again.' },
  PERMISSION_DENIED: { title: 'You are not allowed to do that in this pool.', hint: 'Only the pool\'s owner shares and removes members; only members who can write may write, forget or settle conflicts.' },
  NOT_FOUND: { title: 'That is gone already.', hint: 'Another device probably settled or forgot it a moment ago; the page now shows the current state.' },
  CONFLICT: { title: 'Another change got there first.', hint: 'Try again.' },
  QUOTA_EXCEEDED: { title: 'This browser has no room left for the demo\'s data.', hint: 'Free some space (or clear this site\'s data) and reload.' },
  STORAGE: { title: 'The browser\'s storage failed.', hint: 'Reload the page. A private window without storage cannot run the demo.' },
  CLOSED: { title: 'The memory was closed.', hint: 'Reload the page.' },
  WORKER_FAILED: { title: 'The memory could not start in this browser.', hint: 'Reload the page; the details below say what failed.' },
  CAPABILITY_NOT_SUPPORTED: { title: 'This browser or store cannot do that.', hint: 'The details below name what is missing.' },
  INTEGRITY: { title: 'Some data failed its signature check and was set aside.', hint: 'Nothing was changed; the details below say what was refused.' },
  ABORTED: { title: 'Cancelled.', hint: '' },
  INTERNAL: { title: 'Something went wrong inside memweave.', hint: 'Please report it with the details below.' },
}

/**
 * Codes that answer what a person did or the pool's state (a mistyped ID, no right, gone already),
 * not a fault: the page explains them, so the console gets one line, not a stack trace.
 */
const EXPECTED = new Set(['INVALID_ARGUMENT', 'PERMISSION_DENIED', 'NOT_FOUND', 'CONFLICT', 'ABORTED'])

/** The one console line for an expected refusal, or null for an error whose stack is worth logging. */
export function refusalLine(err: unknown): string | null {
  if (err instanceof DemoError) return `memweave demo: ${err.message}`
  if (isMemweaveError(err) && EXPECTED.has(err.code)) return `memweave demo: ${err.code}: ${err.message}`
  return null
}

export function humanError(err: unknown): HumanError {
  if (err instanceof DemoError) return { title: err.message, hint: err.hint, detail: null }
  if (isMemweaveError(err)) {
    const detail = `${err.code}: ${err.message}`
    const field = typeof err.details.field === 'string' ? err.details.field : null
    const byField = err.code === 'INVALID_ARGUMENT' && field ? BY_FIELD[field] : undefined
    const known = byField ?? BY_CODE[err.code] ?? BY_CODE['INTERNAL']!
    return { title: known.title, hint: known.hint, detail }
  }
  return { title: 'Something went wrong.', hint: 'Reload the page if it keeps happening.', detail: err instanceof Error ? err.message : String(err) }
}
