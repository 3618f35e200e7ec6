import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { isMemweaveError } from '../core/errors.js'

/** One JSON text block: what every memweave MCP tool answers. */
export function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] }
}

/** Runs a tool body; a MemweaveError becomes a structured tool error (the client sees the code and field). */
export function tool<A>(body: (args: A) => Promise<unknown>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return json(await body(args))
    } catch (err) {
      if (!isMemweaveError(err)) throw err
      const field = typeof err.details.field === 'string' ? err.details.field : undefined
      return { ...json({ error: { code: err.code, message: err.message, ...(field ? { field } : {}) } }), isError: true }
    }
  }
}
