import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, MemweaveError, isMemweaveError } from '../../core/errors.js'
import { FORMAT_VERSIONS, formatTooNew, isTooNew } from '../../core/format-version.js'
import { ROOM_PATTERN } from '../../sync/relay-protocol.js'
import { writeFileDurably } from '../../node/durable-file.js'
import { parsePin } from './cluster-room.js'

/**
 * Whether this node's copy of a pool's pin must replace the pin Redis holds (`''`: none). A pin
 * changes hands only by a proof, which makes it `proof`; so a pin taken on trust (`tofu`) for
 * another owner than the copy's was taken after Redis lost the real one: the copy wins when it is
 * a proof, or the earlier of two pins taken on trust (the one before the loss; pins carry the
 * pinning node's clock). A `proof` pin in Redis always stands (a pool id derives from one owner).
 */
export function copyWins(found: string, copy: string | null): boolean {
  if (copy === null || found === copy) return false
  if (found === '') return true
  try {
    const inRedis = parsePin(found)
    const kept = parsePin(copy)
    if (inRedis === null || kept === null || inRedis.source !== 'tofu' || inRedis.owner === kept.owner) return false
    return kept.source === 'proof' || kept.at < inRedis.at
  } catch {
    return false
  }
}

/**
 * A cluster node's own copy of every owner pin it has seen (docs/relay.md, "When Redis loses its
 * data"): the pins it set, the ones it loaded, and every pin any node set (the `pins` stream each
 * node reads). Redis is the authority while it holds a pin; when it has none for a pool this copy
 * has, the node puts the copy back (compare-and-set against no pin) instead of letting the next
 * token's issuer claim the pool on trust: a Redis that restarted empty must not hand pools to the
 * first stranger, nor lock the owner's devices out with 4403.
 *
 * In memory, and with `dir` also in `<dir>/pins.jsonl` (one `{"pool","pin"}` line per change,
 * fsync'd before an admission that pinned is answered), so a node restarted after Redis lost its
 * data still knows. Rewritten compactly when it holds twice as many lines as pools. Node only.
 */
export class PinCopy {
  readonly #pins = new Map<string, string>()
  readonly #path: string | null
  #file: FileHandle | null = null
  #lines = 0
  #writing: Promise<void> = Promise.resolve()

  private constructor(path: string | null) {
    this.#path = path
  }

  /**
   * Opens the copy in `dir` (created 0700), or in memory when `dir` is null. A line that does not
   * parse (a torn last write) is skipped: the pin it held is learned again from Redis or a proof.
   * @throws MemweaveError STORAGE when the directory or file cannot be used.
   */
  static async open(dir: string | null, onError: (err: unknown) => void): Promise<PinCopy> {
    if (dir === null) return new PinCopy(null)
    const copy = new PinCopy(join(dir, 'pins.jsonl'))
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const text = await readFile(copy.#path!, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return ''
        throw err
      })
      let skipped = 0
      for (const line of text.split('\n')) {
        if (line === '') continue
        copy.#lines++
        let parsed: { pool?: unknown; pin?: unknown; v?: unknown }
        try {
          parsed = JSON.parse(line) as typeof parsed
        } catch {
          skipped++
          continue
        }
        // A line a newer relay wrote is not ours to skip or rewrite: the copy is refused whole, untouched.
        if (isTooNew('relayPinCopy', parsed?.v)) throw formatTooNew('relayPinCopy', parsed.v as number, copy.#path!)
        try {
          const { pool, pin } = parsed
          if (typeof pool !== 'string' || !ROOM_PATTERN.test(pool) || typeof pin !== 'string' || parsePin(pin) === null) throw new Error('not a pin line')
          copy.#pins.set(pool, pin)
        } catch {
          skipped++
        }
      }
      if (skipped > 0) onError(new MemweaveError(ErrorCode.STORAGE, `relay: skipped ${skipped} unreadable line(s) of ${copy.#path}`))
      copy.#file = await open(copy.#path!, 'a', 0o600)
    } catch (err) {
      if (isMemweaveError(err) && err.code === ErrorCode.FORMAT_TOO_NEW) throw err
      throw new MemweaveError(ErrorCode.STORAGE, `relay: cannot use the pin copy in ${dir}: ${(err as Error).message}`, {}, { cause: err })
    }
    return copy
  }

  get size(): number {
    return this.#pins.size
  }

  /** Every pool the copy holds a pin for. */
  pools(): string[] {
    return [...this.#pins.keys()]
  }

  /** The pin JSON this node last saw for `pool`, or null. */
  get(pool: string): string | null {
    return this.#pins.get(pool) ?? null
  }

  /**
   * Notes a pin (Redis's current one for `pool`), unless it is a pin taken on trust for another
   * owner than the copy's (see {@link copyWins}); resolves once it is on disk. Never rejects: a
   * write failure goes to `onError`.
   */
  remember(pool: string, pin: string, onError: (err: unknown) => void): Promise<void> {
    const held = this.#pins.get(pool)
    if (held === pin || (held !== undefined && copyWins(pin, held))) return this.#writing
    this.#pins.set(pool, pin)
    if (this.#file === null) return Promise.resolve()
    const line = `${JSON.stringify({ v: FORMAT_VERSIONS.relayPinCopy, pool, pin })}\n`
    this.#writing = this.#writing.then(async () => {
      try {
        await this.#file!.write(line)
        await this.#file!.datasync()
        if (++this.#lines > 2 * this.#pins.size + 1024) await this.#rewrite()
      } catch (err) {
        onError(new MemweaveError(ErrorCode.STORAGE, `relay: cannot write the pin copy ${this.#path}: ${(err as Error).message}`, {}, { cause: err }))
      }
    })
    return this.#writing
  }

  /** Writes one line per pool to a temp file and renames it over the copy. */
  async #rewrite(): Promise<void> {
    await writeFileDurably(this.#path!, [...this.#pins].map(([pool, pin]) => `${JSON.stringify({ v: FORMAT_VERSIONS.relayPinCopy, pool, pin })}\n`).join(''))
    await this.#file!.close()
    this.#file = await open(this.#path!, 'a', 0o600)
    this.#lines = this.#pins.size
  }

  /** Waits for pending writes and closes the file. Idempotent. */
  async close(): Promise<void> {
    await this.#writing
    const file = this.#file
    this.#file = null
    await file?.close()
  }
}
