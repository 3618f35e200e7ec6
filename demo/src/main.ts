import { isMemweaveError, loadOrCreateIdentity, openMemory, type MemoryType, type RemoteMemory } from '../../src/index.js'
// The worker bundled as an ES module worker; openMemory starts it as a SharedWorker (or dedicated workers where there is none).
import workerUrl from '../../worker/memory-worker.ts?worker&url'
import { loadConfig } from './config.js'
import { byId } from './dom.js'
import { joinLink, parseJoin } from './join.js'
import { Links } from './links.js'
import { renderConflicts, renderPools, renderSync, renderTimeline, type Actions } from './render.js'
import { readSnapshot, type Snapshot } from './snapshot.js'
import { changes, type TimelineEvent } from './timeline.js'

/**
 * The demo page: one agent (this profile's persisted identity) and its memory in the worker,
 * pools it owns or joined, replicated through the relay of `memweave start`. Everything on screen
 * is redrawn from a snapshot of the memory whenever the sync status changes, after each action,
 * and every couple of seconds (a write in another tab of this profile changes no sync state).
 */

declare global {
  interface Window {
    /** For poking around in the console: `await demo.mem.pools.list()`. */
    demo?: { mem: RemoteMemory; links: Links }
  }
}

const IDENTITY_LABEL = 'memweave-demo'
const DATABASE = 'memweave-demo'
const SELECTED = 'memweave-demo:selected'
const POLL_MS = 2000

async function main(): Promise<void> {
  const config = await loadConfig()
  const identity = await loadOrCreateIdentity(IDENTITY_LABEL)
  const mem = await openMemory({ name: DATABASE, identity, worker: workerUrl })
  const me = identity.did
  const links = new Links(mem, identity, config.relay)
  window.demo = { mem, links }
  byId('agent-did').textContent = me

  let snapshot: Snapshot | null = null
  const events: TimelineEvent[] = []
  let selected: string | null = localStorage.getItem(SELECTED)
  let invite: { pool: string; link: string; expiresAt: number } | null = null

  const select = (pool: string | null): void => {
    selected = pool
    if (pool) localStorage.setItem(SELECTED, pool)
    refresh()
  }

  const draw = async (): Promise<void> => {
    const waiting = new Map(Object.values(links.joined()).map((c) => [c.pool, c.name]))
    const next = await readSnapshot(mem, waiting)
    events.push(...changes(snapshot, next, me))
    snapshot = next
    if (!next.pools.some((p) => p.id === selected)) selected = next.pools[0]?.id ?? null
    renderPools(next, selected, me, actions)
    renderSync(next, links.relay, actions)
    renderConflicts(next, me, actions)
    renderTimeline(events)
    const shown = invite !== null && invite.pool === selected
    byId('invite').hidden = !shown
    if (shown) {
      byId('join-link', HTMLTextAreaElement).value = invite!.link
      byId('invite-expiry').textContent = new Date(invite!.expiresAt).toLocaleString()
    }
  }

  // One redraw at a time; asking during one runs exactly one more after it.
  let drawing: Promise<void> | null = null
  let again = false
  const refresh = (): void => {
    if (drawing) {
      again = true
      return
    }
    drawing = (async () => {
      do {
        again = false
        await draw()
      } while (again)
    })().catch(report).finally(() => (drawing = null))
  }

  /** Runs a user action: its error goes to the status line, and the page redraws either way. */
  const act = (what: () => Promise<unknown>): void => {
    void what().then(() => say(''), report).finally(refresh)
  }

  const actions: Actions = {
    select,
    forget: (memory) => act(() => mem.pools.forget(memory)),
    resolve: (conflict, winner) => act(() => mem.pools.resolve(conflict, { winner })),
    reconnect: (pool) => act(() => links.reconnect(pool)),
    disconnect: (pool) => act(() => mem.sync.disconnect(pool)),
  }

  const join = async (text: string): Promise<void> => {
    const code = parseJoin(text)
    if (code.expiresAt <= Date.now()) throw new Error('this join link has expired: ask the owner for a new one')
    await links.join(code)
    select(code.pool)
  }

  form('create-pool', (data, el) => act(async () => {
    const pool = await mem.pools.create({ name: String(data.get('name')).trim() || null })
    el.reset()
    select(pool.id)
    await links.connectOwned(pool)
  }))

  form('join-pool', (data, el) => act(async () => {
    await join(String(data.get('code')))
    el.reset()
  }))

  form('share-form', (data, el) => act(async () => {
    if (!selected) return
    const info = await mem.pools.info(selected)
    const code = await links.invite(info, String(data.get('did')).trim(), data.get('write') === 'on')
    invite = { pool: info.id, link: joinLink(location.origin + location.pathname, code), expiresAt: code.expiresAt }
    ;(el.elements.namedItem('did') as HTMLInputElement).value = ''
  }))

  form('write-form', (data, el) => act(async () => {
    if (!selected) return
    await mem.pools.write(selected, {
      type: String(data.get('type')) as MemoryType,
      content: { subject: String(data.get('subject')).trim(), predicate: String(data.get('predicate')).trim(), object: String(data.get('object')).trim() },
    })
    // Subject and predicate stay: writing another object for them is how a conflict is made.
    ;(el.elements.namedItem('object') as HTMLInputElement).value = ''
  }))

  copyButton('copy-did', () => me)
  copyButton('copy-link', () => byId('join-link', HTMLTextAreaElement).value)

  // A join link opened in this window joins at once, then leaves the address bar.
  const joinFromHash = (): void => {
    if (!location.hash.includes('join=')) return
    const hash = location.hash
    history.replaceState(null, '', location.pathname + location.search)
    act(() => join(hash))
  }
  window.addEventListener('hashchange', joinFromHash)
  joinFromHash()

  await mem.sync.subscribe(() => refresh())
  setInterval(refresh, POLL_MS)
  await links.resume().catch(report)
  refresh()
}

function form(id: string, submit: (data: FormData, el: HTMLFormElement) => void): void {
  const el = byId(id, HTMLFormElement)
  el.addEventListener('submit', (event) => {
    event.preventDefault()
    submit(new FormData(el), el)
  })
}

function copyButton(id: string, text: () => string): void {
  byId(id, HTMLButtonElement).addEventListener('click', () => {
    navigator.clipboard.writeText(text()).then(() => say('copied'), () => say('copy failed: select the text and copy it by hand'))
  })
}

let clearing: ReturnType<typeof setTimeout> | undefined

function say(text: string, error = false): void {
  const el = byId('message')
  el.textContent = text
  el.className = error ? 'error' : ''
  clearTimeout(clearing)
  if (text) clearing = setTimeout(() => (el.textContent = ''), 8000)
}

function report(err: unknown): void {
  console.error(err)
  say(isMemweaveError(err) ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err), true)
}

main().catch((err: unknown) => {
  report(err)
  byId('sync-state').textContent = 'failed to start'
})
