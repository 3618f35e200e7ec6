import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { isMemweaveError } from '../core/errors.js'

/** One JSON text block: what every memweave MCP tool answers. */
export function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] }
}

/** Runs a tool body; a MemweaveError becomes a structured tool error (the client sees the code, field and hint). */
export function tool<A>(body: (args: A) => Promise<unknown>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return json(await body(args))
    } catch (err) {
      if (!isMemweaveError(err)) throw err
      const field = typeof err.details.field === 'string' ? err.details.field : undefined
      // What to call instead (an unknown ref: recall first), for an agent to act on.
      const hint = typeof err.details.hint === 'string' ? err.details.hint : undefined
      return { ...json({ error: { code: err.code, message: err.message, ...(field ? { field } : {}), ...(hint ? { hint } : {}) } }), isError: true }
    }
  }
}
