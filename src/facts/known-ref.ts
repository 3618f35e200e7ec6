import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { FactStore, FactMemory } from './types.js'

/** What an agent meant to do with a ref: the refusal's hint says what to do instead. */
export type RefAction = 'supersede' | 'forget'

/**
 * The fact an agent's tool call names by ref, or a refusal it can act on. GMP lets
 * `supersede(unknownRef)` be a fresh write and `delete(unknownRef)` answer false (GMP §3.1); the
 * store keeps that contract. A model, though, invents refs: a supersede that quietly writes a
 * second fact leaves the outdated one current, and a forget that answers "done" deleted nothing
 * (issue 29). So the agent tools (memoryTools, MCP `gmp_supersede`/`gmp_delete`) check first:
 * - a ref no fact has, or one of another tenant than the tool's: NOT_FOUND (`details.field` 'ref');
 * - for supersede, a version already superseded: CONFLICT naming its successor (a second successor
 *   of one fact is a competing supersession, flagged as a conflict).
 * Both carry `details.hint`, one sentence telling the model what to call instead. Nothing is written.
 *
 * @param options.tenantId The tool's tenant; absent accepts a fact of any tenant (a tool without one).
 * @param options.field The argument's name on the tool's surface (`details.field`). Default 'ref'.
 * @throws MemweaveError NOT_FOUND or CONFLICT as above.
 */
export async function knownFact(
  facts: FactStore, ref: string, action: RefAction, options: { readonly tenantId?: string | null; readonly field?: string } = {},
): Promise<FactMemory> {
  const { tenantId, field = 'ref' } = options
  const fact = await facts.get(ref)
  if (fact === null || (tenantId !== undefined && fact.tenantId !== tenantId)) {
    const hint = action === 'supersede'
      ? 'Call recall to find the current ref of the fact to replace (refs are opaque: copy one, never make one up), or remember to store a new fact.'
      : 'Call recall to find the ref of the fact to forget (refs are opaque: copy one, never make one up). Nothing was deleted.'
    throw new MemweaveError(ErrorCode.NOT_FOUND, `no fact has the ref "${clip(ref)}"`, { field, hint })
  }
  if (action === 'supersede' && fact.supersededBy !== null) {
    throw new MemweaveError(ErrorCode.CONFLICT, `the fact "${clip(ref)}" was already superseded by "${fact.supersededBy}"`, {
      field, current: fact.supersededBy, hint: `Supersede the current version, ref "${fact.supersededBy}", instead (or recall to see it).`,
    })
  }
  return fact
}

/** A model may send a page of text as a ref: the message quotes the start of it. */
const clip = (ref: string): string => (ref.length > 80 ? `${ref.slice(0, 77)}...` : ref)
