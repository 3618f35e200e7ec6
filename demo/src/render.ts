import type { ConflictDecision, PoolSyncStatus, SyncState } from '../../src/index.js'
import { byId, clock, fill, h } from './dom.js'
import type { Names } from './names.js'
import type { MemoryRow, PoolView, Snapshot } from './snapshot.js'
import type { TimelineEvent } from './timeline.js'

/**
 * Draws a snapshot into index.html. Only lists are redrawn; the forms are static markup, so a
 * refresh never eats what a person is typing. Words are for people: sync states, roles and
 * problems are said in plain language; agents go by their local names (full DID on hover).
 */

export interface Actions {
  select(pool: string): void
  forget(pool: PoolView, memory: MemoryRow): void
  resolve(pool: PoolView, conflict: string, decision: ConflictDecision): void
  reconnect(pool: string): void
  disconnect(pool: string): void
  rename(did: string): void
  revoke(pool: PoolView, did: string): void
  leave(pool: PoolView): void
}

export interface View {
  readonly names: Names
  readonly now: number
}

/** After this long in step with the relay without the pool's records, a join is not "still arriving". */
export const STALL_MS = 12_000

const STATE: Record<SyncState, string> = { offline: 'Offline', connected: 'Connecting…', syncing: 'Syncing…', synced: 'Up to date' }

/** An agent on screen: its name, the full DID on hover (and copied on click, main.ts). */
function who(did: string, v: View): HTMLElement {
  return h('span', { class: 'who', title: did }, v.names.of(did))
}

const live = (p: PoolView): MemoryRow[] => p.memories.filter((m) => m.lifecycle !== 'archived')
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/**
 * The pool's link is down and retrying by itself: it failed or closed without the relay's refusal
 * (relay stopped, restarting, unreachable). Nothing for the person to do, nothing wrong with the
 * token: told apart from a refusal by `refusal` (docs/sync.md, "Status"), not by the error's words.
 */
export function unreachable(s: PoolSyncStatus | null): boolean {
  return s !== null && s.links > 0 && !s.connected && s.error !== null && s.refusal === null
}

/** What is wrong with a pool that a person should act on, if anything. */
export function poolProblem(p: PoolView, now: number): { title: string; text: string } | null {
  if (p.denied) {
    return { title: 'You no longer have access to this pool.', text: 'Its owner removed this agent (or never shared the pool with it). You can leave the pool, or ask the owner to share it again.' }
  }
  if (p.sync?.refusal) {
    const said = p.sync.refusal.reason || p.sync.error
    return p.info?.access.owner
      ? { title: 'The relay refused this device\'s connection.', text: `It said: "${said}" (${p.sync.refusal.code}). Reconnect tries again with a fresh token.` }
      : { title: 'The relay refused this device\'s connection.', text: `It said: "${said}" (${p.sync.refusal.code}). The join link may have expired or been withdrawn: ask the pool's owner for a new one.` }
  }
  if (!p.info && p.joinedAt !== null && now - p.joinedAt > STALL_MS && p.sync?.state === 'synced') {
    return {
      title: 'Nothing has arrived from this pool.',
      text: 'The relay has sent everything it holds, but none of it is readable by this agent: the owner has not shared the pool with it, or has removed it. Send the owner your agent ID (Copy, in the "You" card) and ask for a new link; or leave this pool.',
    }
  }
  return null
}

export function renderPools(s: Snapshot, selected: string | null, v: View, act: Actions): void {
  fill(byId('pool-list'),
    s.pools.length === 0 ? h('li', { class: 'empty' }, 'No pools yet. Create one below, or join one with a link someone sent you.') : null,
    ...s.pools.map((p) => {
      const problem = poolProblem(p, v.now)
      const [badge, text] = problem ? ['problem', 'needs attention']
        : unreachable(p.sync) ? ['offline', 'relay unreachable, retrying']
        : !p.info ? ['connected', 'waiting'] : [p.sync?.state ?? 'local', p.sync ? STATE[p.sync.state] : 'not shared']
      return h('li', {}, h('button', {
        type: 'button', class: p.id === selected ? 'pool selected' : 'pool', 'data-testid': 'pool-item', 'data-pool': p.id,
        onclick: () => act.select(p.id),
      },
      h('span', { class: 'line' }, h('strong', {}, p.name ?? p.id.slice(0, 8)), h('span', { class: `badge ${badge}` }, text)),
      h('span', { class: 'hint' }, p.info ? `${plural(live(p).length, 'memory', 'memories')} · ${role(p)}${p.info.owner !== v.names.me ? ` · owner ${v.names.of(p.info.owner)}` : ''}` : 'waiting for its records from the relay…')))
    }))
  const view = s.pools.find((p) => p.id === selected) ?? null
  byId('pool-detail').hidden = view === null
  byId('no-pool').hidden = view !== null
  if (view) renderDetail(view, v, act)
}

function role(p: PoolView): string {
  const a = p.info?.access
  return !a ? '' : a.owner ? 'you own it' : a.write ? 'you can write' : a.read ? 'read only' : 'no access'
}

function renderDetail(view: PoolView, v: View, act: Actions): void {
  const info = view.info
  const me = v.names.me
  const owner = info?.access.owner === true
  fill(byId('pool-title'), view.name ?? '(unnamed pool)')
  fill(byId('pool-meta'), info ? `Created ${new Date(info.createdAt).toLocaleString()} by ` : 'Waiting for the pool\'s records from the relay…', info ? who(info.owner, v) : null, info ? ` · ${role(view)}` : null)
  const problem = poolProblem(view, v.now)
  const box = byId('pool-problem')
  box.hidden = problem === null
  if (problem) fill(box, h('p', {}, h('strong', {}, problem.title)), h('p', {}, problem.text))
  const leave = byId('leave-pool', HTMLButtonElement)
  leave.hidden = info?.access.owner === true
  leave.onclick = () => act.leave(view)

  fill(byId('members'),
    !info ? h('li', { class: 'empty hint' }, 'Members appear once the pool\'s records arrive.') : null,
    ...(info?.members ?? []).map((m) => h('li', { 'data-testid': 'member', 'data-did': m.did },
      h('span', { class: 'person' },
        h('span', { class: 'who', title: m.did }, m.did === me ? `You${v.names.label(me) ? ` (${v.names.label(me)})` : ''}` : v.names.of(m.did)),
        h('span', { class: 'role' }, m.owner ? 'owner' : m.write ? 'reads and writes' : 'reads only', m.expiresAt ? ` until ${new Date(m.expiresAt).toLocaleString()}` : null)),
      m.did !== me ? h('button', { type: 'button', class: 'quiet', onclick: () => act.rename(m.did) }, 'Rename') : null,
      owner && !m.owner ? h('button', { type: 'button', class: 'quiet danger-text', 'data-testid': 'revoke', onclick: () => act.revoke(view, m.did) }, 'Remove') : null)))
  byId('share-form').hidden = !info?.access.owner
  byId('write-form').hidden = !info?.access.write

  const current = live(view)
  const archived = view.memories.length - current.length
  fill(byId('memory-count'), info ? `· ${current.length} live${archived ? `, ${archived} superseded` : ''}` : '')
  byId('memory-table').hidden = view.memories.length === 0
  byId('no-memories').hidden = view.memories.length > 0 || !info || view.denied
  fill(byId('no-memories'), info?.access.write ? 'No memories in this pool yet. Write the first one above.' : 'No memories in this pool yet.')
  const conflicted = new Set(view.conflicts.flatMap((c) => c.memories as readonly string[]))
  fill(byId('memories'), ...view.memories.map((m) => {
    const archived = m.lifecycle === 'archived'
    return h('tr', {
      'data-testid': 'memory', 'data-memory': m.id, class: archived ? 'archived' : conflicted.has(m.id) ? 'conflicted' : '',
      title: archived ? 'Superseded: replaced by a newer value, a merge or a settled conflict' : null,
    },
    h('td', {},
      h('span', { class: 'triple' }, m.subject, ' ', h('span', { class: 'pred' }, m.predicate), ' ', h('strong', {}, m.object)),
      h('span', { class: 'meta' }, `${m.type.toLowerCase()} · `, h('time', { title: new Date(m.at).toISOString() }, clock(m.at)), archived ? ' · superseded' : conflicted.has(m.id) ? ' · in conflict' : null)),
    h('td', {}, who(m.author, v)),
    h('td', { class: 'act' }, mayForget(info, m.author, me) ? h('button', { type: 'button', class: 'quiet danger-text', 'data-testid': 'forget', onclick: () => act.forget(view, m) }, 'Forget') : null))
  }))
}

export function renderSync(s: Snapshot, relay: string, act: Actions): void {
  const badge = byId('sync-state')
  const none = s.sync.pools.length === 0
  badge.className = `badge ${none ? 'local' : s.sync.state}`
  badge.dataset['state'] = none ? 'none' : s.sync.state
  const retrying = s.sync.state === 'offline' && s.sync.pools.some(unreachable)
  fill(badge, none ? 'No shared pool yet' : retrying ? 'Relay unreachable, retrying' : STATE[s.sync.state])
  fill(byId('relay-url'), relay)
  const names = new Map(s.pools.map((p) => [p.id, p.name ?? p.id.slice(0, 8)]))
  fill(byId('sync-detail'),
    none ? h('p', { class: 'hint' }, 'Nothing to sync yet. A pool is kept in step with your other devices through the relay once you create or join one.') : null,
    ...s.sync.pools.map((p) => poolLink(p, names.get(p.pool) ?? p.pool.slice(0, 8), act)))
}

function poolLink(p: PoolSyncStatus, name: string, act: Actions): HTMLElement {
  const online = p.links > 0
  const waiting = [
    p.pending.outgoing ? `${plural(p.pending.outgoing, 'change')} waiting to be sent` : null,
    p.pending.incoming ? `${plural(p.pending.incoming, 'change')} being applied` : null,
  ].filter(Boolean).join(', ') || 'nothing waiting'
  return h('div', { class: 'link', 'data-testid': 'pool-sync', 'data-pool': p.pool, 'data-state': p.state },
    h('div', { class: 'line' }, h('strong', {}, name), h('span', { class: `badge ${p.state}` }, STATE[p.state])),
    h('div', { class: 'hint', 'data-testid': 'pool-sync-text' },
      !online ? 'Not connected: changes made here wait until you reconnect. '
        : p.connected ? 'Connected to the relay. '
        : unreachable(p) ? 'The relay cannot be reached; retrying. Changes made here wait until it is back. '
        : 'Trying to reach the relay… ',
      `${waiting[0]!.toUpperCase()}${waiting.slice(1)}.`,
      p.quarantined ? ` ${plural(p.quarantined, 'change')} from others refused (not signed by a member).` : null),
    p.refusal ? h('div', { class: 'error-text' }, `The relay refused the connection: ${p.error}`) : null,
    h('div', { class: 'buttons' },
      h('button', { type: 'button', disabled: online && p.connected, title: 'Connect this pool to the relay again', onclick: () => act.reconnect(p.pool) }, 'Reconnect'),
      h('button', { type: 'button', disabled: !online, title: 'Disconnect from the relay; changes queue here', onclick: () => act.disconnect(p.pool) }, 'Go offline')))
}

export function renderConflicts(s: Snapshot, v: View, act: Actions): void {
  const pools = s.pools.flatMap((p) => p.conflicts.map((c) => ({ p, c })))
  // A pool memory is also a fact (mem.facts), so facts.conflicts repeats the pool's conflicts: show those once, with their actions.
  const shown = new Set(pools.map(({ c }) => `${c.subject}\u0000${c.predicate}`))
  const facts = s.factConflicts.filter((f) => !shown.has(`${f.subject ?? ''}\u0000${f.predicate ?? ''}`))
  const memory = (p: PoolView, id: string): MemoryRow | undefined => p.memories.find((m) => m.id === id)
  fill(byId('conflicts'),
    pools.length === 0 && facts.length === 0 ? h('p', { class: 'hint' }, 'No contradictions. Write two different values for one subject and predicate (here, or on two devices) to see one.') : null,
    ...pools.map(({ p, c }) => {
      const can = p.info?.access.write === true
      const suggested = c.suggestion.winner ? memory(p, c.suggestion.winner) : undefined
      return h('div', { class: 'conflict', 'data-testid': 'pool-conflict', 'data-conflict': c.id },
        h('div', { class: 'line' }, h('strong', {}, `${c.subject} · ${c.predicate}`), h('span', { class: 'hint' }, `in ${p.name ?? p.id.slice(0, 8)}`)),
        h('div', { class: 'hint' }, `Suggested: ${suggested ? `keep "${suggested.object}"` : 'merge them'} (${c.suggestion.reason}).`),
        ...c.memories.map((id) => {
          const m = memory(p, id)
          return h('div', { class: 'option' },
            h('span', {}, h('strong', {}, `"${m?.object ?? id.slice(0, 8)}"`), ' by ', m ? who(m.author, v) : '?'),
            can && m ? h('button', { type: 'button', onclick: () => act.resolve(p, c.id, { winner: id }) }, `Keep "${m.object}"`) : null)
        }),
        can ? h('div', { class: 'buttons' },
          h('button', { type: 'button', title: 'Replace both with one memory that keeps the newer value and records both as its sources', onclick: () => act.resolve(p, c.id, { strategy: 'recent' }) }, 'Merge into one'))
          : h('div', { class: 'hint' }, 'Only members who can write may settle it.'))
    }),
    ...facts.map((f) => h('div', { class: 'conflict', 'data-testid': 'fact-conflict' },
      h('strong', {}, `${f.subject ?? '?'} · ${f.predicate ?? '?'}`), h('div', { class: 'hint' }, f.reason))))
}

const MAX_EVENTS = 200

export function renderTimeline(events: readonly TimelineEvent[]): void {
  fill(byId('timeline'),
    events.length === 0 ? h('li', { class: 'hint' }, 'Nothing has happened yet.') : null,
    ...events.slice(-MAX_EVENTS).reverse().map((e) => h('li', { class: `${e.kind} ${e.mine ? 'mine' : 'remote'}`, 'data-testid': 'event' },
      h('time', {}, clock(e.at)), e.text)))
}

/** The pool's forget rule (docs/pools.md): the author or the owner, or any writer under `forgetBy: 'writers'`. */
function mayForget(info: PoolView['info'], author: string, me: string): boolean {
  if (!info?.access.write) return false
  return author === me || info.access.owner || info.policies.forgetBy === 'writers'
}
