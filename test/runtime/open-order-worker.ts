/// <reference lib="webworker" />
// A memweave worker for runtime-open.browser.test.ts: the real host, whose ping answers only once
// an open has arrived (at once with `?ping=now`, never with `?ping=never`), and which reports on a BroadcastChannel
// each open and each module a page asks for, before any call on it.
import * as Comlink from 'comlink'
import { createMemoryHost, type HostedMemory, type PageJudge, type WorkerOpenOptions } from '../../src/runtime/host.js'
import type { MemoryModule } from '../../src/memory-modules.js'

// Vitest's browser mode rewrites this worker's `import()`s too (vite.config.ts says why the memory worker gets a pass-through): the same here.
;(globalThis as { __vitest_browser_runner__?: unknown }).__vitest_browser_runner__ ??= { wrapDynamicImport: (load: () => unknown) => load() }
const host = createMemoryHost()
const params = new URL(self.location.href).searchParams
const report = new BroadcastChannel(params.get('channel') ?? 'open-order')
let openArrived: () => void = () => undefined
const arrived = new Promise<void>((resolve) => (openArrived = resolve))

const api = {
  ping: async () => {
    if (params.get('ping') === 'never') return new Promise<never>(() => undefined)
    if (params.get('ping') !== 'now') await arrived
    return host.ping()
  },
  async open(o: WorkerOpenOptions, judge?: PageJudge) {
    openArrived()
    report.postMessage({ type: 'open' })
    const hosted = (await host.open(o, judge)) as HostedMemory
    return Comlink.proxy({
      module: (name: MemoryModule) => {
        report.postMessage({ type: 'module', name })
        return hosted.module(name)
      },
      info: () => hosted.info(),
      exportBackup: (x?: never) => hosted.exportBackup(x),
      importBackup: (x?: never) => hosted.importBackup(x),
      close: () => hosted.close(),
    })
  },
}

const scope = self as unknown as { onconnect?: unknown; addEventListener: (type: string, fn: (e: MessageEvent) => void) => void }
if ('onconnect' in scope) scope.addEventListener('connect', (e: MessageEvent) => Comlink.expose(api, e.ports[0]!))
else Comlink.expose(api)
