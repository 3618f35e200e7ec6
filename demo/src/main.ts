import { loadOrCreateIdentity, openMemory, type MemoryType, type RemoteMemory } from '../../src/index.js'
// The worker bundled as an ES module worker; openMemory starts it as a SharedWorker (or dedicated workers where there is none).
import workerUrl from '../../worker/memory-worker.ts?worker&url'
import { loadConfig } from './config.js'
import { confirmDialog, nameDialog } from './dialog.js'
import { byId, shortDid } from './dom.js'
import { DemoError, humanError, refusalLine } from './errors.js'
import { joinLink, parseJoin, tokenClaims } from './join.js'
import { Links } from './links.js'
import { Names } from './names.js'
import { renderConflicts, renderPools, renderSync, renderTimeline, type Actions } from './render.js'
import { readSnapshot, type Joined, type Snapshot } from './snapshot.js'
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
  const names = new Names(me)
  window.demo = { mem, links }
  const agent = byId('agent-did')
  agent.textContent = shortDid(me)
  agent.title = me
  const drawName = (): void => {
    byId('agent-name').textContent = names.label(me) ?? 'No name yet'
    byId('rename-me').textContent = names.label(me) ? 'Rename' : 'Set name'
  }
  drawName()

  let snapshot: Snapshot | null = null
  const events: TimelineEvent[] = []
  /** Memories forgotten and conflicts settled from this page: the timeline says "you" for them. */
  const here = new Set<string>()
  /** Pools this agent has been able to read since the page loaded. */
  const readable = new Set<string>()
  let selected: string | null = localStorage.getItem(SELECTED)
  let invite: { pool: string; link: string; expiresAt: number; to: string } | null = null

  const select = (pool: string | null): void => {
    selected = pool
    if (pool) localStorage.setItem(SELECTED, pool)
    refresh()
  }

  const draw = async (): Promise<void> => {
    const joined = new Map<string, Joined>(Object.values(links.joined()).map((c) => [c.pool, { name: c.name, joinedAt: c.joinedAt ?? null }]))
    const read = await readSnapshot(mem, joined, links.left())
    // A pool whose records this agent could read and now cannot (it disappears from pools.list): removed by its owner.
    for (const p of read.pools) if (p.info) readable.add(p.id)
    const next = { ...read, pools: read.pools.map((p) => (!p.info && readable.has(p.id) ? { ...p, denied: true } : p)) }
    events.push(...changes(snapshot, next, me, { name: (did) => names.of(did), here }))
    snapshot = next
    if (!next.pools.some((p) => p.id === selected)) selected = next.pools[0]?.id ?? null
    const view = { names, now: next.at }
    renderPools(next, selected, view, actions)
    renderSync(next, links.relay, actions)
    renderConflicts(next, view, actions)
    renderTimeline(events)
    const shown = invite !== null && invite.pool === selected
    byId('invite').hidden = !shown
    if (shown) {
      byId('join-link', HTMLTextAreaElement).value = invite!.link
      byId('invite-expiry').textContent = new Date(invite!.expiresAt).toLocaleString()
      byId('invite-to').textContent = names.of(invite!.to)
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

  /**
   * Runs a user action: its error goes to the error banner, and the page redraws either way. The
   * banner names the action that raised it, and that action's next success takes it down (a failed
   * share's banner does not stay beside the join link of the share that worked).
   */
  const act = (name: string, what: () => Promise<unknown>): void => {
    void what().then(() => clearReport(name), (err: unknown) => report(err, name)).finally(refresh)
  }

  const actions: Actions = {
    select,
    forget: (pool, m) => act('forget', async () => {
      const ok = await confirmDialog({
        title: 'Forget this memory everywhere?',
        text: `"${m.subject} ${m.predicate} ${m.object}" will be deleted for good from every device in "${pool.name ?? 'this pool'}", not just this one. This cannot be undone.`,
        confirm: 'Forget everywhere',
      })
      if (!ok) return
      here.add(m.id)
      await mem.pools.forget(m.id)
    }),
    resolve: (_pool, conflict, decision) => act('resolve', async () => {
      here.add(conflict)
      await mem.pools.resolve(conflict, decision)
    }),
    reconnect: (pool) => act('reconnect', () => links.reconnect(pool)),
    disconnect: (pool) => act('disconnect', () => mem.sync.disconnect(pool)),
    rename: (did) => act('rename', async () => {
      const name = await nameDialog({ title: 'Name this agent', text: `A name for ${shortDid(did)}, kept in this browser only.`, value: names.label(did) ?? '' })
      if (name !== null) names.set(did, name)
    }),
    revoke: (pool, did) => act('revoke', async () => {
      const ok = await confirmDialog({
        title: `Remove ${names.of(did)} from "${pool.name ?? 'this pool'}"?`,
        text: 'Every device stops accepting their changes at once, and they can no longer read new memories. What they already copied stays with them.',
        confirm: 'Remove member',
      })
      if (ok) await mem.pools.revoke(pool.id, did)
    }),
    leave: (pool) => act('leave', async () => {
      const ok = await confirmDialog({
        title: `Leave "${pool.name ?? 'this pool'}"?`,
        text: 'This device stops syncing the pool and stops showing it. The memories stay with the other members; to come back you need a new join link from the owner.',
        confirm: 'Leave pool',
      })
      if (!ok) return
      await links.leave(pool.id)
      if (selected === pool.id) select(null)
    }),
  }

  const join = async (text: string): Promise<void> => {
    let code
    try {
      code = parseJoin(text)
    } catch {
      throw new DemoError('That is not a join link.', 'Copy the whole link the pool\'s owner sent you (it contains "#join=") and paste it again.')
    }
    if (code.expiresAt <= Date.now()) throw new DemoError('This join link has expired.', 'Ask the pool\'s owner for a new one.')
    const { sub, iss } = tokenClaims(code.token)
    if (sub !== me) {
      // A token is a bearer capability: it would connect, but this agent is not a member, so nothing it receives is readable.
      throw new DemoError(
        `This join link was made for another agent (${sub ? shortDid(sub) : 'unknown'}), not for this device (${shortDid(me)}).`,
        'Links work only for the agent they were made for. Send the pool\'s owner your agent ID (Copy, in the "You" card) and ask them to share the pool with it.',
      )
    }
    if (iss) names.suggest(iss, code.from)
    await links.join(code)
    // A pool that never arrives is told by poolProblem after STALL_MS, on one of the regular redraws.
    select(code.pool)
  }

  form('create-pool', (data, el) => act('create', async () => {
    const pool = await mem.pools.create({ name: String(data.get('name')).trim() || null })
    el.reset()
    select(pool.id)
    await links.connectOwned(pool)
  }))

  form('join-pool', (data, el) => act('join', async () => {
    await join(String(data.get('code')))
    el.reset()
  }))

  form('share-form', (data, el) => act('share', async () => {
    if (!selected) return
    const info = await mem.pools.info(selected)
    const did = String(data.get('did')).trim()
    const code = await links.invite(info, did, data.get('write') === 'on', names.label(me))
    names.suggest(did, String(data.get('label') ?? '').trim())
    invite = { pool: info.id, link: joinLink(location.origin + location.pathname, code), expiresAt: code.expiresAt, to: did }
    el.reset()
  }))

  form('write-form', (data, el) => act('write', async () => {
    if (!selected) return
    await mem.pools.write(selected, {
      type: String(data.get('type')) as MemoryType,
      content: { subject: String(data.get('subject')).trim(), predicate: String(data.get('predicate')).trim(), object: String(data.get('object')).trim() },
    })
    // Subject and predicate stay: writing another object for them is how a conflict is made.
    ;(el.elements.namedItem('object') as HTMLInputElement).value = ''
  }))

  byId('rename-me', HTMLButtonElement).addEventListener('click', () => act('rename', async () => {
    const name = await nameDialog({ title: 'Your name', text: 'Shown on this device, and given to members with the join links you make.', value: names.label(me) ?? '' })
    if (name !== null) names.set(me, name)
    drawName()
  }))
  byId('error-close', HTMLButtonElement).addEventListener('click', () => (byId('error').hidden = true))
  copyButton('copy-did', () => me)
  // Any agent shown by name or short DID: its full DID is the title (hover), and a click copies it.
  document.addEventListener('click', (event) => {
    const who = event.target instanceof Element ? event.target.closest('.who[title^="did:"]') : null
    if (who) copy(who.getAttribute('title')!)
  })
  copyButton('copy-link', () => byId('join-link', HTMLTextAreaElement).value)

  // A join link opened in this window joins at once, then leaves the address bar.
  const joinFromHash = (): void => {
    if (!location.hash.includes('join=')) return
    const hash = location.hash
    history.replaceState(null, '', location.pathname + location.search)
    act('join', () => join(hash))
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
  byId(id, HTMLButtonElement).addEventListener('click', () => copy(text()))
}

function copy(text: string): void {
  navigator.clipboard.writeText(text).then(() => say('Copied.'), () => say('Copy failed: select the text and copy it by hand.'))
}

let clearing: ReturnType<typeof setTimeout> | undefined

/** A passing note ("Copied."); errors go to the banner instead, which stays until dismissed. */
function say(text: string): void {
  const el = byId('message')
  el.textContent = text
  clearTimeout(clearing)
  if (text) clearing = setTimeout(() => (el.textContent = ''), 4000)
}

/** The user action whose error the banner shows (`act`'s name), or null for one the page raised itself. */
let shownFor: string | null = null

function report(err: unknown, action: string | null = null): void {
  // An expected refusal is explained in the banner: one console line; anything else keeps its stack.
  const line = refusalLine(err)
  if (line !== null) console.warn(line)
  else console.error(err)
  shownFor = action
  const e = humanError(err)
  byId('error-title').textContent = e.title
  byId('error-hint').textContent = e.hint
  byId('error-more').hidden = e.detail === null
  byId('error-detail').textContent = e.detail ?? ''
  byId('error').hidden = false
}

/** `action` succeeded: the banner it raised, if it is still up, no longer says what is true. */
function clearReport(action: string): void {
  if (shownFor !== action) return
  shownFor = null
  byId('error').hidden = true
}

main().catch((err: unknown) => {
  report(err)
  byId('sync-state').textContent = 'failed to start'
})
