/// <reference types="vite/client" />
import * as Comlink from 'comlink'
import { openMemory, type RemoteMemory } from '../src/client.js'
import type { benchApi } from './bench-worker.js'
import { factRow } from './client-rows.js'
import benchWorkerUrl from './bench-worker.ts?worker&url'

/**
 * The page side of bench/write-probe.ts (issue 31, session 13): the client bench's single awaited
 * writes through openMemory in a loop, so a CPU profile of the page can be taken around them.
 */
declare global {
  interface Window {
    __writeProbe?: typeof probe
  }
}

let mem: RemoteMemory | undefined
let api: Comlink.Remote<typeof benchApi> | undefined
let dbName = ''
// Means, not p50s: performance.now() is coarsened to 0.1 ms on a page that is not cross-origin isolated.
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
const probe = {
  async open(name: string, mode: 'shared' | 'dedicated'): Promise<void> {
    dbName = name
    const url = new URL(benchWorkerUrl, location.href)
    mem = await openMemory({ name, mode, worker: url, persist: false })
    const shared = new SharedWorker(url, { type: 'module', name: `memweave:${name}` })
    shared.port.start()
    api = Comlink.wrap<typeof benchApi>(shared.port)
  },
  /** Messages the page posts per single write (MessagePort.postMessage, counted around `n` writes): one is the floor. */
  async messages(n: number): Promise<number> {
    const post = MessagePort.prototype.postMessage
    let posted = 0
    MessagePort.prototype.postMessage = function (this: MessagePort, ...a: unknown[]): void {
      posted++
      return (post as (...x: unknown[]) => void).apply(this, a)
    } as MessagePort['postMessage']
    try {
      for (let i = 0; i < n; i++) await mem!.facts.write(factRow(i, `count-${performance.now()}`).content)
    } finally {
      MessagePort.prototype.postMessage = post
    }
    return posted / n
  },
  /** The in-worker baseline alone: `n` single writes called in the worker on a memory of its own. */
  async direct(n: number): Promise<number> {
    return mean(await api!.directWriteLatencies(`${dbName}-direct`, n))
  },
  /** Means of `n` round trips each, interleaved: a comlink ping on the worker's own port, and info() on the port of the hosted memory (a MessagePort the worker made and sent over). */
  async hops(n: number): Promise<Record<string, number>> {
    const hosted = await api!.open({ name: dbName, identity: null, election: false })
    const own: number[] = []
    const sent: number[] = []
    for (let i = 0; i < n; i++) {
      let t = performance.now()
      await api!.ping()
      own.push(performance.now() - t)
      t = performance.now()
      await hosted.info()
      sent.push(performance.now() - t)
    }
    await hosted.close()
    return { "ping, the worker's port": mean(own), 'info(), a port the worker made': mean(sent) }
  },
  /** Means, each of `n`, one after another: the page's write, a comlink ping of the same worker, the write called in the worker, a raw put + commit there. */
  async parts(n: number, salt: string): Promise<Record<string, number>> {
    const ping: number[] = []
    for (let i = 0; i < n; i++) {
      const t = performance.now()
      await api!.ping()
      ping.push(performance.now() - t)
    }
    const hosted = await api!.open({ name: dbName, identity: null, election: false })
    const facts = await hosted.module('facts')
    const info: number[] = []
    const bare: number[] = []
    for (let i = 0; i < n; i++) {
      let t = performance.now()
      await hosted.info()
      info.push(performance.now() - t)
      t = performance.now()
      await facts.call('write', factRow(i, `bare-${salt}`).content)
      bare.push(performance.now() - t)
    }
    await hosted.close()
    const page = await probe.singles(n, salt)
    const once: number[] = []
    for (let i = 0; i < n; i++) {
      const t = performance.now()
      await api!.directWriteOnce(`${dbName}-once`, i)
      once.push(performance.now() - t)
    }
    return {
      'page write': mean(page),
      'comlink ping round trip': mean(ping),
      'info() round trip, the hosted memory port': mean(info),
      'facts target call(write) from the page, no client wrappers': mean(bare),
      'page asks the worker to write, one comlink call': mean(once),
      'host facts target, in worker': mean(await api!.hostedWriteLatencies(dbName, n)),
      'in-worker write': mean(await api!.directWriteLatencies(`${dbName}-direct`, n)),
      'raw put + commit in worker': mean(await api!.rawAwaitedPutLatencies(dbName, n)),
    }
  },
  /** `n` single awaited writes; their latencies, sorted. */
  async singles(n: number, salt: string): Promise<number[]> {
    const out: number[] = []
    for (let i = 0; i < n; i++) {
      const t = performance.now()
      await mem!.facts.write(factRow(i, salt).content)
      out.push(performance.now() - t)
    }
    return out.sort((a, b) => a - b)
  },
}
window.__writeProbe = probe
