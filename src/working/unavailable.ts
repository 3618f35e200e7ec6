import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { WorkingMemory } from './types.js'

/**
 * `mem.working` for a runtime that does not host working memory yet (the worker client until its
 * host exposes it): open() rejects with CAPABILITY_NOT_SUPPORTED instead of the property being absent.
 */
export function workingMemoryUnavailable(where: string): WorkingMemory {
  return {
    async open() {
      throw new MemweaveError(
        ErrorCode.CAPABILITY_NOT_SUPPORTED,
        `working memory is not available through ${where} yet; use createMemory() in this thread`,
        { capability: 'WORKING_MEMORY', operation: 'working.open' },
      )
    },
  }
}
