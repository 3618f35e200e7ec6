import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { MAX_JSON_DEPTH, jsonDepth, type WireErrorBody } from './protocol.js'

/**
 * Small node:http helpers of the GMP server: a size-capped JSON body reader, JSON replies and
 * the bearer-token check. Node only.
 */

/** A reply the server decided on (an HTTP error); never leaves the server module. */
export class HttpReply extends Error {
  readonly status: number
  readonly body: WireErrorBody
  readonly headers: Readonly<Record<string, string>>

  constructor(status: number, body: WireErrorBody, headers: Record<string, string> = {}) {
    super(body.message ?? body.error)
    this.status = status
    this.body = body
    this.headers = headers
  }
}

export const badRequest = (message: string): HttpReply => new HttpReply(400, { error: 'bad_request', message })

/**
 * A request body must say it is JSON (`application/json`, any parameters): a web page can send
 * `text/plain` and form bodies to any address without a CORS preflight, never `application/json`.
 * A request with no body and no Content-Type passes (`POST .../flush`).
 * @throws HttpReply 415 otherwise.
 */
export function assertJsonContentType(req: IncomingMessage): void {
  const type = req.headers['content-type']
  if (type === undefined) {
    const declared = req.headers['content-length']
    if (req.headers['transfer-encoding'] === undefined && (declared === undefined || Number(declared) === 0)) return
  } else if (/^application\/json[ \t]*(;|$)/i.test(type)) {
    return
  }
  throw new HttpReply(415, { error: 'unsupported_media_type', message: `request bodies must be "Content-Type: application/json" (got ${type === undefined ? 'none' : JSON.stringify(type)})` }, { connection: 'close' })
}

const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Reads the request body as a JSON object, at most `limit` bytes; an empty body reads as `{}`.
 * Past the limit it stops buffering at once and the rest is discarded.
 * @throws HttpReply 413 over the limit, 400 for invalid UTF-8, malformed JSON or a non-object.
 */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const tooLarge = (): HttpReply =>
    new HttpReply(413, { error: 'payload_too_large', message: `request body exceeds ${limit} bytes` }, { connection: 'close' })
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) throw tooLarge()
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      // Stop buffering but keep the socket: the rest is read and dropped, so the 413 can be sent.
      req.off('data', onData)
      req.resume()
      reject(tooLarge())
    }
    req.on('data', onData)
    req.once('end', () => resolve(Buffer.concat(chunks, size)))
    // A client that goes away mid-body ('error: aborted', or just 'close'): nobody is left to
    // answer, but the handler must finish, and it is not a server failure.
    const cutOff = (): void => reject(badRequest('request body was cut off'))
    req.once('error', cutOff)
    req.once('close', cutOff)
  })
  let text: string
  try {
    text = decoder.decode(body)
  } catch {
    throw badRequest('request body is not valid UTF-8')
  }
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw badRequest(`malformed JSON: ${(err as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('request body must be a JSON object')
  if (jsonDepth(value) > MAX_JSON_DEPTH) throw badRequest(`request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`)
  return value as Record<string, unknown>
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  res.end(text)
}

/** Above this many characters of content, a list reply is streamed item by item. */
const STREAM_OVER = 16 * 1024 * 1024

/**
 * Sends `{"<key>": [...items]}`. A large list (a store's whole audit) is written one item at a
 * time with backpressure, chunked, so no string or buffer ever holds the whole reply (one would
 * cost a second copy of the store and fail past V8's ~512 MiB string limit).
 */
export async function sendJsonList(res: ServerResponse, key: string, items: readonly unknown[], size: number): Promise<void> {
  if (size <= STREAM_OVER) return sendJson(res, 200, { [key]: items })
  if (res.headersSent || res.destroyed) return
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
  const write = async (text: string): Promise<void> => {
    if (res.write(text) || res.destroyed) return
    await new Promise<void>((ok) => {
      const done = (): void => {
        res.off('drain', done).off('close', done)
        ok()
      }
      res.on('drain', done).on('close', done)
    })
  }
  await write(`{${JSON.stringify(key)}:[`)
  for (let i = 0; i < items.length && !res.destroyed; i++) await write(`${i === 0 ? '' : ','}${JSON.stringify(items[i])}`)
  res.end(']}')
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()

/**
 * A checker of `Authorization: Bearer <token>`. Both sides are hashed first so the comparison is
 * constant-time whatever the lengths; with no token configured every request passes.
 */
export function bearerCheck(token: string | null | undefined): (req: IncomingMessage) => boolean {
  if (token === undefined || token === null) return () => true
  const expected = digest(token)
  return (req) => {
    const header = req.headers['authorization']
    const match = typeof header === 'string' ? /^Bearer[ \t]+(.+?)[ \t]*$/i.exec(header) : null
    const given = digest(match?.[1] ?? '')
    // Evaluate both so a missing header and a wrong token take the same path.
    return timingSafeEqual(given, expected) && match !== null
  }
}
