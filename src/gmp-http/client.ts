import { ErrorCode, MemweaveError, capabilityNotSupported } from '../core/errors.js'
import type { Capability } from '../facts/capabilities.js'
import { verifyProvenance } from '../facts/provenance.js'
import type { FactConflict, FactRef, FactStore, FactMemory, RetrieveOptions, WriteOptions } from '../facts/types.js'
import {
  WIRE_BASE_PATH, memoryFromWire, retrieveOptionsToWire, writeOptionsToWire, type CreateStoreRequest, type DeleteRequest,
  type RetrieveRequest, type SupersedeRequest, type WireConflict, type WireErrorBody, type WireStoreInfo, type WriteRequest,
} from './protocol.js'

export interface GmpHttpClientOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string | null
  /** The fetch to use; the global one by default. */
  readonly fetch?: typeof fetch
}

export interface CreateStoreOptions extends GmpHttpClientOptions {
  /** Ask a memweave server for a store with only these capabilities (a memweave extension of WIRE.md). */
  readonly capabilities?: readonly Capability[]
}

/** The FactStore operations GMP's wire carries. */
export type GmpWireStore = Pick<
  FactStore,
  'capabilities' | 'write' | 'supersede' | 'delete' | 'retrieve' | 'audit' | 'flush' | 'verifyProvenance'
>

/** `http://host:port`, `http://host:port/` and `http://host:port/v1` all name the same API. */
function apiBase(baseUrl: string): string {
  const trimmed = String(baseUrl).replace(/\/+$/, '')
  return trimmed.endsWith(WIRE_BASE_PATH) ? trimmed : `${trimmed}${WIRE_BASE_PATH}`
}

async function call(
  url: string,
  method: 'GET' | 'POST',
  body: unknown,
  options: GmpHttpClientOptions,
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (options.token) headers['authorization'] = `Bearer ${options.token}`
  let res: Response
  let text: string
  try {
    res = await (options.fetch ?? fetch)(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    text = await res.text()
  } catch (err) {
    throw new MemweaveError(ErrorCode.STORAGE, `GMP server unreachable (${method} ${url}): ${(err as Error)?.message ?? String(err)}`, { url }, { cause: err })
  }
  let json: unknown
  try {
    json = text === '' ? {} : JSON.parse(text)
  } catch {
    json = undefined
  }
  if (res.ok) {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new MemweaveError(ErrorCode.STORAGE, `GMP server sent a non-object reply to ${method} ${url}`, { url, status: res.status })
    }
    return json as Record<string, unknown>
  }
  throw errorFromWire(res.status, json as Partial<WireErrorBody> | undefined, `${method} ${url}`)
}

/** A wire error as a MemweaveError: 422 becomes CAPABILITY_NOT_SUPPORTED with its capability and operation. */
function errorFromWire(status: number, body: Partial<WireErrorBody> | undefined, request: string): MemweaveError {
  const wire = typeof body?.error === 'string' ? body.error : undefined
  const message = typeof body?.message === 'string' ? body.message : `${request} failed with HTTP ${status}`
  const details = { status, error: wire }
  if (status === 422 || wire === 'capability_not_supported') {
    return capabilityNotSupported(String(body?.capability ?? 'unknown'), String(body?.operation ?? 'unknown'))
  }
  if (wire === 'quota_exceeded') return new MemweaveError(ErrorCode.QUOTA_EXCEEDED, message, details)
  if (wire === 'store_damaged') return new MemweaveError(ErrorCode.DATA_DAMAGED, message, details)
  if (wire === 'store_format_too_new') return new MemweaveError(ErrorCode.FORMAT_TOO_NEW, message, details)
  if (status === 400 || status === 413) return new MemweaveError(ErrorCode.INVALID_ARGUMENT, message, details)
  if (status === 401 || status === 403) return new MemweaveError(ErrorCode.PERMISSION_DENIED, message, details)
  if (status === 404) return new MemweaveError(ErrorCode.NOT_FOUND, message, details)
  return new MemweaveError(ErrorCode.STORAGE, message, details)
}

function memoriesOf(reply: Record<string, unknown>): FactMemory[] {
  const list = reply['memories']
  if (!Array.isArray(list)) throw new MemweaveError(ErrorCode.STORAGE, 'GMP server sent no "memories" list')
  return list.map(memoryFromWire)
}

/**
 * A GMP store on a server that speaks WIRE.md (memweave's own, or any other), with the
 * camelCase FactStore methods the GMP contract has. Memories come back in the TypeScript shape
 * (bytes as Uint8Array); refs are passed through untouched; a 422 is a MemweaveError
 * CAPABILITY_NOT_SUPPORTED. Runs wherever `fetch` does.
 *
 * @example
 * const store = await GmpHttpClient.createStore('http://127.0.0.1:7411/v1', { token })
 * const ref = await store.write('Aria lives in Rome', { signingKey: seed })
 * const [m] = await store.retrieve('Aria', { budgetTokens: 200 })
 * if (m) await store.verifyProvenance(m, m.factId) // true
 */
export class GmpHttpClient implements GmpWireStore {
  /** The API base, ending in `/v1`. */
  readonly baseUrl: string
  readonly storeId: string
  readonly #options: GmpHttpClientOptions

  /** A client of an existing store (e.g. a second session on one store). */
  constructor(baseUrl: string, storeId: string, options: GmpHttpClientOptions = {}) {
    this.baseUrl = apiBase(baseUrl)
    this.storeId = storeId
    this.#options = options
  }

  /**
   * Makes a fresh, empty store on the server and returns a client of it.
   * @throws MemweaveError PERMISSION_DENIED for a wrong token, INVALID_ARGUMENT for a capability set the server refuses, STORAGE when the server is unreachable.
   */
  static async createStore(baseUrl: string, options: CreateStoreOptions = {}): Promise<GmpHttpClient> {
    const base = apiBase(baseUrl)
    const body: CreateStoreRequest = options.capabilities ? { capabilities: options.capabilities } : {}
    const reply = await call(`${base}/stores`, 'POST', body, options)
    if (typeof reply['store_id'] !== 'string') throw new MemweaveError(ErrorCode.STORAGE, 'GMP server sent no store_id')
    return new GmpHttpClient(base, reply['store_id'], options)
  }

  #call(op: string, method: 'GET' | 'POST', body?: unknown): Promise<Record<string, unknown>> {
    return call(`${this.baseUrl}/stores/${encodeURIComponent(this.storeId)}/${op}`, method, body, this.#options)
  }

  async capabilities(): Promise<Capability[]> {
    const reply = await this.#call('capabilities', 'GET')
    const caps = reply['capabilities']
    if (!Array.isArray(caps)) throw new MemweaveError(ErrorCode.STORAGE, 'GMP server sent no "capabilities" list')
    return caps as Capability[]
  }

  async write(content: string, options: WriteOptions = {}): Promise<FactRef> {
    const body: WriteRequest = { content, options: writeOptionsToWire(options) }
    return (await this.#call('write', 'POST', body))['ref'] as FactRef
  }

  async supersede(oldRef: FactRef | string, content: string, options: WriteOptions = {}): Promise<FactRef> {
    const body: SupersedeRequest = { old_ref: oldRef, content, options: writeOptionsToWire(options) }
    return (await this.#call('supersede', 'POST', body))['ref'] as FactRef
  }

  async delete(ref: FactRef | string): Promise<boolean> {
    const body: DeleteRequest = { ref }
    return (await this.#call('delete', 'POST', body))['deleted'] === true
  }

  async retrieve(query: string, options: RetrieveOptions = {}): Promise<FactMemory[]> {
    const body: RetrieveRequest = { query, options: retrieveOptionsToWire(options) }
    return memoriesOf(await this.#call('retrieve', 'POST', body))
  }

  async audit(): Promise<FactMemory[]> {
    return memoriesOf(await this.#call('audit', 'GET'))
  }

  async flush(): Promise<void> {
    await this.#call('flush', 'POST', {})
  }

  /**
   * The store's current contradictions (`GET .../conflicts`, a memweave extension of WIRE.md).
   * `waitForJudge` asks a server made with a second-stage judge to list once the judge has
   * answered for the pairs it was asked about (`facts.conflicts({ waitForJudge })`).
   */
  async conflicts(options: { tenantId?: string | null; waitForJudge?: boolean } = {}): Promise<FactConflict[]> {
    const params = new URLSearchParams()
    if (options.tenantId) params.set('tenant_id', options.tenantId)
    if (options.waitForJudge === true) params.set('wait_for_judge', 'true')
    const query = params.toString() ? `?${params.toString()}` : ''
    const list = (await this.#call(`conflicts${query}`, 'GET'))['conflicts']
    if (!Array.isArray(list)) throw new MemweaveError(ErrorCode.STORAGE, 'GMP server sent no "conflicts" list')
    return (list as WireConflict[]).map((c) => ({
      kind: c.kind, refs: [c.refs[0] as FactRef, c.refs[1] as FactRef], tenantId: c.tenant_id, subject: c.subject, predicate: c.predicate, reason: c.reason,
      ...(typeof c.confidence === 'number' ? { confidence: c.confidence } : {}),
      ...(c.judge ? { judge: c.judge } : {}),
    }))
  }

  /** Every store on the server (`GET /v1/stores`, a memweave extension): what a token holder may open. */
  static async listStores(baseUrl: string, options: GmpHttpClientOptions = {}): Promise<WireStoreInfo[]> {
    const list = (await call(`${apiBase(baseUrl)}/stores`, 'GET', undefined, options))['stores']
    if (!Array.isArray(list)) throw new MemweaveError(ErrorCode.STORAGE, 'GMP server sent no "stores" list')
    return list as WireStoreInfo[]
  }

  /** GMP's `verify_provenance`, computed here from the memory itself; the server is not trusted for it. */
  verifyProvenance(memory: FactMemory, factId: string | Uint8Array): Promise<boolean> {
    return verifyProvenance(memory, factId)
  }
}
