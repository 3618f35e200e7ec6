import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The million-fact run's kept store (issue 31): MEMWEAVE_BENCH_MILLION_KEEP=dir writes the facts
 * once into a Chromium profile under `dir` and leaves this manifest beside it;
 * MEMWEAVE_BENCH_MILLION_REUSE=dir reads it and measures the read half again without the ~17
 * minutes of writes. The manifest says what the profile holds and where the write figures came from.
 */
export const MILLION_STORE_VERSION = 1

export interface MillionStore {
  readonly version: typeof MILLION_STORE_VERSION
  readonly count: number
  /** The raw baseline's database (memweave's table layout, written by bulkPut). */
  readonly rawName: string
  /** memweave's database, written through `facts.write()`. */
  readonly memweaveName: string
  /**
   * The port the page was served from: IndexedDB belongs to an origin, and the origin includes the
   * port, so a reuse on another port would find no database at all.
   */
  readonly port: number
  readonly write: { readonly memweaveMs: number; readonly baselineMs: number; readonly tailPerSec: number }
  /** `navigator.storage.estimate()` after both writes: whether the profile's quota holds both. */
  readonly storage: { readonly usageBytes: number; readonly quotaBytes: number }
  readonly commit: string
  /** ISO time the kept run ended. */
  readonly date: string
}

/** Chromium owns this subdirectory; the manifest sits next to it, out of the browser's way. */
export const profileDir = (dir: string): string => join(dir, 'profile')
export const manifestPath = (dir: string): string => join(dir, 'million-store.json')

export class MillionStoreError extends Error {
  constructor(
    readonly code: 'MILLION_STORE_MISSING' | 'MILLION_STORE_INVALID' | 'MILLION_STORE_COUNT' | 'MILLION_STORE_EXISTS',
    message: string,
  ) {
    super(message)
    this.name = 'MillionStoreError'
  }
}

const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0
const isFigure = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0

/** Checks a manifest's text against the count asked for; throws MillionStoreError, never guesses. */
export function parseMillionStore(text: string, count: number, where = 'the manifest'): MillionStore {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new MillionStoreError('MILLION_STORE_INVALID', `${where} is not JSON: ${(err as Error).message}`)
  }
  const m = raw as Partial<Record<keyof MillionStore, unknown>> | null
  const w = (m?.write ?? null) as Record<string, unknown> | null
  const s = (m?.storage ?? null) as Record<string, unknown> | null
  if (
    typeof m !== 'object' || m === null || m.version !== MILLION_STORE_VERSION || !isCount(m.count) || !isName(m.rawName) ||
    !isName(m.memweaveName) || !isCount(m.port) || typeof w !== 'object' || w === null || !isFigure(w['memweaveMs']) ||
    !isFigure(w['baselineMs']) || !isFigure(w['tailPerSec']) || typeof s !== 'object' || s === null ||
    !isFigure(s['usageBytes']) || !isFigure(s['quotaBytes']) || typeof m.commit !== 'string' || typeof m.date !== 'string'
  ) {
    throw new MillionStoreError('MILLION_STORE_INVALID', `${where} is not a version ${MILLION_STORE_VERSION} million-store manifest`)
  }
  // Figures on a store of another size would be printed under this count's heading.
  if (m.count !== count) {
    throw new MillionStoreError('MILLION_STORE_COUNT', `${where} holds ${m.count} facts, the run asks for ${count}: set MEMWEAVE_BENCH_MILLION=${m.count}, or keep a new store`)
  }
  return m as MillionStore
}

export async function readMillionStore(dir: string, count: number): Promise<MillionStore> {
  const path = manifestPath(dir)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    throw new MillionStoreError('MILLION_STORE_MISSING', `no kept million-fact store at ${dir} (${path} is missing): run once with MEMWEAVE_BENCH_MILLION_KEEP=${dir}`)
  }
  return parseMillionStore(text, count, path)
}

/** Refuses a directory that already holds a kept run: its databases would stay, unlisted, beside the new ones. */
export async function prepareKeepDir(dir: string): Promise<void> {
  await mkdir(profileDir(dir), { recursive: true })
  const exists = await readFile(manifestPath(dir), 'utf8').then(() => true, () => false)
  if (exists) throw new MillionStoreError('MILLION_STORE_EXISTS', `${dir} already holds a kept store: reuse it (MEMWEAVE_BENCH_MILLION_REUSE=${dir}) or keep into a new directory`)
}

export async function writeMillionStore(dir: string, store: MillionStore): Promise<void> {
  await writeFile(manifestPath(dir), `${JSON.stringify(store, null, 2)}\n`)
}
