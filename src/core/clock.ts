import { invalidArgument } from './errors.js'

/**
 * A hybrid logical clock (Kulkarni et al., 2014): wall-clock milliseconds plus a counter, so the
 * timestamps it issues are strictly increasing even when the wall clock stalls or steps back,
 * and stay close to real time. It gives GMP its monotonic `sequence`.
 *
 * Stamps come from peers too, and a peer chooses its own (docs/sync.md, "Clocks"). So the clock
 * adopts a stamp only up to `MAX_AHEAD_MS` past its own wall clock (Kulkarni's bound ε: one
 * stamp from the far future would otherwise date every later record there), and the codec
 * (`parseHlc`) refuses any stamp outside the range every module can represent.
 */
export interface Hlc {
  readonly wall: number
  readonly counter: number
  /** Who issued it: two handles ticking in the same millisecond still get distinct stamps. */
  readonly node?: string
}

/**
 * How far past this replica's wall clock a stamp may be and still move its clock: one minute.
 * NTP keeps honest devices within a second or so; a minute leaves room for a device that is
 * badly set without letting anyone push every replica's dates further than that. A record
 * stamped later than this waits on each replica until its time (docs/sync.md, "Clocks").
 */
export const MAX_AHEAD_MS = 60_000

/**
 * The last wall time a stamp may carry, in ms (2255-06-05): a write time is kept in microseconds
 * (`hlcMicros`, core/time.ts), which a double holds exactly only up to 2^53. Every date a stamp
 * becomes (`Date`, ISO text) is well inside the range of `Date` up to here.
 */
export const MAX_WALL_MS = Math.floor((Number.MAX_SAFE_INTEGER - 999) / 1000)

/** The largest counter: six hex digits, the width the encoding sorts by. */
export const MAX_COUNTER = 0xffffff

const STAMP = /^([0-9a-f]{12})\.([0-9a-f]{6})(?:\.([0-9a-z]{1,32}))?$/
const NODE = /^[0-9a-z]{1,32}$/

export class HybridClock {
  #wall = 0
  #counter = 0
  readonly #now: () => number
  readonly node: string

  constructor(now: () => number = Date.now, node: string = randomNode()) {
    this.#now = now
    this.node = node
  }

  /**
   * Issues a timestamp greater than every one issued or observed before. The counter never
   * outgrows its six digits: past `MAX_COUNTER` the stamp moves to the next millisecond.
   */
  tick(): Hlc {
    const physical = this.#physical()
    if (physical > this.#wall) {
      this.#wall = physical
      this.#counter = 0
    } else if (this.#counter < MAX_COUNTER) {
      this.#counter++
    } else {
      this.#wall++
      this.#counter = 0
    }
    return { wall: this.#wall, counter: this.#counter, node: this.node }
  }

  /**
   * Moves the clock past a timestamp seen elsewhere (another replica, or storage after a restart),
   * unless it is more than `MAX_AHEAD_MS` ahead of this clock's wall time: such a stamp is not
   * adopted (returns false). Returns whether the clock now stands at or past `seen`.
   * @throws MemweaveError INVALID_ARGUMENT when `seen` is not a stamp of the representable range.
   */
  observe(seen: Hlc): boolean {
    assertHlc(seen, 'seen')
    if (seen.wall > this.#physical() + MAX_AHEAD_MS) return false
    if (seen.wall > this.#wall || (seen.wall === this.#wall && seen.counter > this.#counter)) {
      this.#wall = seen.wall
      this.#counter = seen.counter
    }
    return true
  }

  /** The wall clock, kept inside the representable range (a broken system clock must not make unencodable stamps). */
  #physical(): number {
    const now = Math.floor(this.#now())
    return Number.isFinite(now) ? Math.min(Math.max(now, 0), MAX_WALL_MS) : 0
  }
}

function randomNode(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Whether `hlc` is a stamp of the representable range: integer wall in [0, MAX_WALL_MS], counter in [0, MAX_COUNTER]. */
export function isHlc(hlc: unknown): hlc is Hlc {
  if (typeof hlc !== 'object' || hlc === null) return false
  const { wall, counter, node } = hlc as Partial<Hlc>
  return Number.isSafeInteger(wall) && wall! >= 0 && wall! <= MAX_WALL_MS &&
    Number.isSafeInteger(counter) && counter! >= 0 && counter! <= MAX_COUNTER &&
    (node === undefined || (typeof node === 'string' && NODE.test(node)))
}

function assertHlc(hlc: unknown, field: string): asserts hlc is Hlc {
  if (!isHlc(hlc)) {
    throw invalidArgument(field, `is not a clock stamp: wall must be an integer in [0, ${MAX_WALL_MS}] ms, counter in [0, ${MAX_COUNTER}], node 1-32 of [0-9a-z]`)
  }
}

/**
 * Fixed-width text that sorts like the clock: 12 hex digits of ms, 6 of counter, then the node.
 * @throws MemweaveError INVALID_ARGUMENT for a stamp outside the representable range (it would not sort).
 */
export function encodeHlc(hlc: Hlc): string {
  assertHlc(hlc, 'hlc')
  const base = `${hlc.wall.toString(16).padStart(12, '0')}.${hlc.counter.toString(16).padStart(6, '0')}`
  return hlc.node ? `${base}.${hlc.node}` : base
}

/**
 * The codec's reading of a stamp: exactly 12 hex digits of wall time no later than `MAX_WALL_MS`,
 * exactly 6 of counter, an optional node; anything else is null. Use it wherever a stamp comes
 * from outside (a peer, a caller): `decodeHlc` is for stamps already held.
 */
export function parseHlc(text: unknown): Hlc | null {
  if (typeof text !== 'string') return null
  const m = STAMP.exec(text)
  if (!m) return null
  const wall = parseInt(m[1]!, 16)
  if (wall > MAX_WALL_MS) return null
  const counter = parseInt(m[2]!, 16)
  return m[3] ? { wall, counter, node: m[3] } : { wall, counter }
}

const MAX_WALL_HEX = MAX_WALL_MS.toString(16).padStart(12, '0')

/** `parseHlc(text) !== null` without building the stamp (the codec asks it of every record of a join): fixed-width hex compares as text. */
export function isStamp(text: unknown): text is string {
  return typeof text === 'string' && STAMP.test(text) && text.slice(0, 12) <= MAX_WALL_HEX
}

/**
 * `parseHlc` for a caller's input.
 * @throws MemweaveError INVALID_ARGUMENT (`details.field`) when `text` is not a stamp of the representable range.
 */
export function assertStamp(text: unknown, field: string): string {
  // isStamp, not parseHlc: the same answer without the match and the stamp object (a record sealed with its draft's stamp asks it on every write).
  if (!isStamp(text)) {
    throw invalidArgument(field, `is not a clock stamp: 12 hex digits of ms up to ${MAX_WALL_MS.toString(16)}, '.', 6 hex digits of counter, optionally '.' and a node`)
  }
  return text as string
}

/**
 * Reads a stamp already held (storage, a record the codec passed). Lenient, never throws: a stamp
 * that a version before the codec's range check stored (wider fields, a wall past the range)
 * reads as the nearest stamp of the range, so no module fails on one record's stamp.
 */
export function decodeHlc(text: string): Hlc {
  const [wall, counter, node] = String(text).split('.')
  return { wall: clampWall(parseInt(wall ?? '0', 16)), counter: clamp(parseInt(counter ?? '0', 16), MAX_COUNTER), ...(node ? { node } : {}) }
}

/** `decodeHlc(text).wall` without decoding the rest (every pool record's verdict reads it, twice on a join). */
export function hlcWall(text: string): number {
  const dot = text.indexOf('.')
  return clampWall(parseInt(dot < 0 ? text : text.slice(0, dot), 16))
}

/** The write time a timestamp stands for, in microseconds; the counter fills the sub-millisecond digits. */
export function hlcMicros(hlc: Hlc): number {
  return clampWall(hlc.wall) * 1000 + Math.min(clamp(hlc.counter, MAX_COUNTER), 999)
}

/** The wall time of a stamp as a `Date` (always a valid one: see `decodeHlc`). */
export function hlcDate(text: string): Date {
  return new Date(hlcWall(text))
}

function clampWall(ms: number): number {
  return clamp(ms, MAX_WALL_MS)
}

function clamp(n: number, max: number): number {
  return Number.isFinite(n) ? Math.min(Math.max(n, 0), max) : 0
}
