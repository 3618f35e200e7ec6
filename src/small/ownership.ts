import { ErrorCode, MemweaveError } from '../core/errors.js'
import { SmallRule } from './findings.js'
import { OWNERSHIP, filePathOf, type SmallDocName } from './layout.js'

/**
 * Who is writing: a human or an agent (SMALL.md "Ownership Rules").
 *
 * How memweave tells them apart: a `did:key` is only a public key, and nothing in a key says a
 * person holds it. So the role is not read from the identity; it is *granted* by whoever configures
 * the memory: `createMemory({ small: { humans: [did, ...] } })` lists the identities that act for
 * people (typically a key made on the person's device, kept non-extractable by the app's UI and
 * never handed to the agent loop). Every other identity, and a write without an identity, is an
 * agent. The materializer applies the same rule to records that arrive from elsewhere, so a record
 * of `intent` authored by an agent is refused on every replica, not only on the one that wrote it.
 *
 * Files on disk have no identities: the caller states the role (`role: 'human'`); the default is
 * `'agent'`, the safe side for a library that agents call.
 */
export type SmallRole = 'human' | 'agent'

/** The role of an author DID given the configured human identities. */
export function roleOf(author: string | null | undefined, humans: ReadonlySet<string>): SmallRole {
  return typeof author === 'string' && humans.has(author) ? 'human' : 'agent'
}

/** Whether `role` may write document `name`: agents never write intent or constraints. */
export function mayWrite(name: SmallDocName, role: SmallRole): boolean {
  return !(OWNERSHIP[name] === 'human' && role === 'agent')
}

/**
 * @throws MemweaveError PERMISSION_DENIED when an agent writes a human-owned document.
 */
export function assertMayWrite(name: SmallDocName, role: SmallRole, who = 'this agent identity'): void {
  if (mayWrite(name, role)) return
  const file = filePathOf(name)
  throw new MemweaveError(
    ErrorCode.PERMISSION_DENIED,
    `${file}: ${name} is human-owned (SMALL.md "Ownership Rules"); ${who} may read it but not write it. ` +
      `Ask a person to change it, or write with an identity listed in small.humans.`,
    { field: name, file, pointer: '', rule: SmallRule.OWNERSHIP },
  )
}
