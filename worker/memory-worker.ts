/// <reference lib="webworker" />
// The memweave worker entry: a SharedWorker (one memory per origin) or, where there is none,
// a dedicated worker per tab that takes part in leader election. It owns IndexedDB.
import * as Comlink from 'comlink'
import { createMemoryHost } from '../src/runtime/host.js'

const host = createMemoryHost()
const scope = self as unknown as { onconnect?: unknown; addEventListener: (type: string, fn: (e: MessageEvent) => void) => void }

if ('onconnect' in scope) {
  scope.addEventListener('connect', (event: MessageEvent) => {
    const port = event.ports[0]!
    Comlink.expose(host, port)
  })
} else {
  Comlink.expose(host)
}
