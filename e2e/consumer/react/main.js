// The consumer test's React page (e2e/consumer-react.spec.ts): memweave/react from the packed package
// in a Vite React app. Plain createElement, so the app needs no JSX plugin. `?scene=` picks what it
// renders: `app` (the README's React example, under StrictMode), or nothing until the test drives a
// scene through window.reactPage (unmount during a pending open, during a pending subscribe).
import { StrictMode, createElement as h, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { loadOrCreateIdentity, openMemory } from 'memweave'
import { useConflicts, useMemory, usePool, useRetrieve, useSyncStatus } from 'memweave/react'

const params = new URLSearchParams(location.search)
const mode = params.get('mode') ?? 'auto'
const name = params.get('name') ?? 'react-consumer'

// What the page can see of its workers: every dedicated Worker made, and those terminated.
const workers = { made: 0, terminated: 0 }
let workerMade = () => undefined
const RealWorker = window.Worker
window.Worker = class extends RealWorker {
  constructor(...args) {
    super(...args)
    workers.made++
    workerMade()
  }
  terminate() {
    workers.terminated++
    super.terminate()
  }
}

const errors = []
addEventListener('error', (e) => errors.push(`error: ${e.message}`))
addEventListener('unhandledrejection', (e) => errors.push(`unhandled rejection: ${String(e.reason)}`))
const consoleError = console.error
console.error = (...args) => {
  errors.push(`console.error: ${args.map(String).join(' ')}`)
  consoleError(...args)
}

/** How often each effect ran: StrictMode in a development build runs every effect twice on mount. */
const effects = { app: 0 }
const states = []
let current = null

function Facts({ memory }) {
  const { data, error } = useRetrieve(memory, 'standup notes', { topK: 10 })
  if (error) return h('p', { id: 'facts-error' }, String(error))
  return h('ul', { id: 'facts' }, (data ?? []).map((m) => h('li', { key: m.ref }, m.content)))
}

function Conflicts({ memory }) {
  const { data } = useConflicts(memory)
  return h('p', { id: 'conflicts' }, data === undefined ? '…' : String(data.length))
}

function SyncBadge({ memory }) {
  const { data } = useSyncStatus(memory)
  return h('p', { id: 'sync' }, data?.state ?? '…')
}

function Pool({ memory, poolId }) {
  const { data, error } = usePool(memory, poolId, { orderBy: 'recent' })
  if (error) return h('p', { id: 'pool-error' }, String(error))
  return h('section', null,
    h('p', { id: 'pool-name' }, data?.info.name ?? '…'),
    h('ul', { id: 'pool' }, (data?.memories ?? []).map((m) => h('li', { key: m.id }, String(m.content.object)))))
}

function App({ identity }) {
  const state = useMemory({ name, mode, identity })
  const [poolId, setPoolId] = useState(null)
  states.push(state.status)
  current = state.memory
  useEffect(() => {
    effects.app++
    window.reactPage.showPool = (id) => setPoolId(id)
  }, [])
  return h('main', null,
    h('p', { id: 'status' }, state.status),
    state.memory && h(Facts, { memory: state.memory }),
    state.memory && h(Conflicts, { memory: state.memory }),
    state.memory && params.get('sync') !== 'off' && h(SyncBadge, { memory: state.memory }),
    state.memory && poolId && h(Pool, { memory: state.memory, poolId }))
}

/** A memory's facts with every subscribe and stop counted, to see what an unmounted hook leaves. */
function counted(memory) {
  const c = { called: 0, resolved: 0, stopped: 0, resultsAfterUnmount: 0, unmounted: false, onCall: () => undefined }
  const facts = {
    async subscribe(query, options, callback) {
      c.called++
      c.onCall()
      const stop = await memory.facts.subscribe(query, options, (hits) => {
        if (c.unmounted) c.resultsAfterUnmount++
        callback(hits)
      })
      c.resolved++
      return async () => {
        c.stopped++
        await stop()
      }
    },
  }
  return { memory: { facts }, counts: c }
}

function Query({ memory, renders }) {
  const { data } = useRetrieve(memory, 'standup notes', { topK: 10 })
  renders.push(data === undefined ? null : data.length)
  return h('p', null, String(data?.length))
}

function Holder({ options, seen }) {
  const state = useMemory(options)
  seen.push(state.status)
  return h('p', null, state.status)
}

const rootElement = document.getElementById('root')
let root = null

window.reactPage = {
  workers,
  errors,
  effects,
  states,
  /** Writes through the App's memory. */
  async write(text) {
    await current.facts.write(text)
  },
  /** Asserts a structured fact through the App's memory (two objects of one slot conflict). */
  async assert(subject, predicate, object) {
    await current.facts.assert({ subject, predicate, object })
  },
  /** Creates a pool through the App's memory; returns its id. */
  async createPool(poolName) {
    return (await current.pools.create({ name: poolName })).id
  },
  /** Writes a memory into a pool through the App's memory. */
  async writePool(poolId, object) {
    await current.pools.write(poolId, { type: 'KNOWLEDGE', content: { subject: 'standup', predicate: 'room', object } })
  },
  /** Unmounts the App (its memory closes). */
  unmountApp() {
    root.unmount()
    root = null
  },
  /**
   * Mounts a component whose useMemory starts opening a memory, and unmounts it as soon as its
   * worker is made (openMemory is then waiting for the worker's answer).
   */
  async unmountWhileOpening() {
    const seen = []
    const made = new Promise((ok) => (workerMade = ok))
    const before = { ...workers }
    const r = createRoot(document.createElement('div'))
    flushSync(() => r.render(h(StrictMode, null, h(Holder, { options: { name: `${name}-opening`, mode: 'dedicated' }, seen }))))
    await made
    workerMade = () => undefined
    r.unmount()
    return { seen, madeBefore: before.made, terminatedBefore: before.terminated }
  },
  /**
   * Mounts a component whose useRetrieve subscribes, and unmounts it while that subscribe is still
   * crossing to the worker; then writes a fact the query matches.
   */
  async unmountWhileSubscribing() {
    const memory = await openMemory({ name: `${name}-subscribing`, mode })
    const { memory: wrapped, counts } = counted(memory)
    const called = new Promise((ok) => (counts.onCall = ok))
    const renders = []
    const r = createRoot(document.createElement('div'))
    flushSync(() => r.render(h(Query, { memory: wrapped, renders })))
    await called
    const pendingAtUnmount = counts.resolved === 0
    counts.unmounted = true
    r.unmount()
    const rendersAtUnmount = renders.length
    await memory.facts.write('standup notes are in the wiki')
    // Until the subscribe has arrived; the hook stops it then, before the round trip below returns.
    while (counts.resolved === 0) await new Promise((ok) => setTimeout(ok, 20))
    const after = await memory.facts.retrieve('standup notes', { topK: 10 })
    await memory.close()
    return { pendingAtUnmount, ...counts, onCall: undefined, rendersAtUnmount, rendersAfter: renders.length, found: after.length }
  },
}

if (params.get('scene') === 'app') {
  // One identity per origin, kept in IndexedDB: two tabs are one agent (it owns the pools it creates).
  const identity = await loadOrCreateIdentity('react-consumer')
  root = createRoot(rootElement)
  root.render(h(StrictMode, null, h(App, { identity })))
}
document.title = 'ready'
