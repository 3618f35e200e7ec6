import { ErrorCode } from '../core/errors.js'

/**
 * The first line each way on a `memweave mcp` attachment socket (src/mcp/shared-dir.ts), before
 * the MCP session it carries: the attaching process says which agent it acts for, the serving
 * process answers that it serves it (with the agent's did) or why not. Every line after is MCP.
 */

export const ATTACH_PROTOCOL_VERSION = 1

/** The longest first line either side reads; a longer one is refused. */
export const MAX_ATTACH_LINE_BYTES = 4096

export type AttachMessage =
  /** Attaching → serving: act for `agent` (a name, src/mcp/agent-identity.ts) or, when null, as the directory. */
  | { readonly type: 'attach'; readonly v: typeof ATTACH_PROTOCOL_VERSION; readonly agent: string | null }
  /** Serving → attaching: the session is up and signs as `did` (null: the store has no identity). */
  | { readonly type: 'attached'; readonly v: typeof ATTACH_PROTOCOL_VERSION; readonly did: string | null }
  /** Serving → attaching: no session, with a memweave error code and why. */
  | { readonly type: 'refused'; readonly v: typeof ATTACH_PROTOCOL_VERSION; readonly code: ErrorCode; readonly message: string }

export function encodeAttachMessage(message: AttachMessage): string {
  return `${JSON.stringify(message)}\n`
}

/** The message of one line, or null when the line is not one of this version. */
export function parseAttachMessage(line: string): AttachMessage | null {
  let m: Record<string, unknown>
  try {
    m = JSON.parse(line) as Record<string, unknown>
  } catch {
    return null
  }
  if (typeof m !== 'object' || m === null || m['v'] !== ATTACH_PROTOCOL_VERSION) return null
  const v = ATTACH_PROTOCOL_VERSION
  switch (m['type']) {
    case 'attach':
      return m['agent'] === null || typeof m['agent'] === 'string' ? { type: 'attach', v, agent: m['agent'] } : null
    case 'attached':
      return m['did'] === null || typeof m['did'] === 'string' ? { type: 'attached', v, did: m['did'] } : null
    case 'refused': {
      const code = m['code']
      const known = typeof code === 'string' && Object.values(ErrorCode).includes(code as ErrorCode)
      return known && typeof m['message'] === 'string' ? { type: 'refused', v, code: code as ErrorCode, message: m['message'] } : null
    }
    default:
      return null
  }
}
