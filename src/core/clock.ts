/**
 * A hybrid logical clock (Kulkarni et al., 2014): wall-clock milliseconds plus a counter, so the
 * timestamps it issues are strictly increasing even when the wall clock stalls or steps back,
 * and stay close to real time. It gives GMP its monotonic `sequence`.
 */
export interface Hlc {
  readonly wall: number
  readonly counter: number
  /** Who issued it: two handles ticking in the same millisecond still get distinct stamps. */
  readonly node?: string
}

export class HybridClock {
  #wall = 0
  #counter = 0
  readonly #now: () => number
  readonly node: string

  constructor(now: () => number = Date.now, node: string = randomNode()) {
    this.#now = now
    this.node = node
  }

  /** Issues a timestamp greater than every one issued or observed before. */
  tick(): Hlc {
    const physical = this.#now()
    if (physical > this.#wall) {
      this.#wall = physical
      this.#counter = 0
    } else {
      this.#counter++
    }
    return { wall: this.#wall, counter: this.#counter, node: this.node }
  }

  /** Moves the clock past a timestamp seen elsewhere (another replica, or storage after a restart). */
  observe(seen: Hlc): void {
    if (seen.wall > this.#wall || (seen.wall === this.#wall && seen.counter > this.#counter)) {
      this.#wall = seen.wall
      this.#counter = seen.counter
    }
  }
}

function randomNode(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Fixed-width text that sorts like the clock: 12 hex digits of ms, 6 of counter, then the node. */
export function encodeHlc(hlc: Hlc): string {
  const base = `${hlc.wall.toString(16).padStart(12, '0')}.${hlc.counter.toString(16).padStart(6, '0')}`
  return hlc.node ? `${base}.${hlc.node}` : base
}

export function decodeHlc(text: string): Hlc {
  const [wall, counter, node] = text.split('.')
  return { wall: parseInt(wall ?? '0', 16), counter: parseInt(counter ?? '0', 16), ...(node ? { node } : {}) }
}

/** `decodeHlc(text).wall` without decoding the rest (every pool record's verdict reads it, twice on a join). */
export function hlcWall(text: string): number {
  const dot = text.indexOf('.')
  return parseInt(dot < 0 ? text : text.slice(0, dot), 16)
}

/** The write time a timestamp stands for, in microseconds; the counter fills the sub-millisecond digits. */
export function hlcMicros(hlc: Hlc): number {
  return hlc.wall * 1000 + Math.min(hlc.counter, 999)
}
