import type { PoolSyncStatus } from '../../src/index.js'
import { byId, clock, fill, h, shortDid } from './dom.js'
import type { MemoryRow, PoolView, Snapshot } from './snapshot.js'
import type { TimelineEvent } from './timeline.js'

/**
 * Draws a snapshot into index.html. Only lists are redrawn; the forms are static markup, so a
 * refresh never eats what a person is typing.
 */

export interface Actions {
  select(pool: string): void
  forget(memory: string): void
  resolve(conflict: string, winner: string): void
  reconnect(pool: string): void
  disconnect(pool: string): void
}

const who = (did: string, me: string): string => (did === me ? 'you' : shortDid(did))

export function renderPools(s: Snapshot, selected: string | null, me: string, act: Actions): void {
  fill(byId('pool-list'), ...s.pools.map((p) => h('li', {},
    h('button', {
      type: 'button', class: p.id === selected ? 'pool selected' : 'pool', 'data-testid': 'pool-item', 'data-pool': p.id,
      onclick: () => act.select(p.id),
    },
    h('strong', {}, p.name ?? p.id.slice(0, 8)), ' ',
    h('span', { class: `badge ${p.sync?.state ?? 'local'}` }, p.sync?.state ?? 'local'), ' ',
    p.info ? h('span', { class: 'hint' }, `${p.memories.length} memories · ${p.info.access.owner ? 'owner' : p.info.access.write ? 'writer' : 'reader'}`)
      : h('span', { class: 'hint' }, 'waiting for records…'),
    p.info && p.info.owner !== me ? h('span', { class: 'hint' }, ` · owned by ${shortDid(p.info.owner)}`) : null))))
  const view = s.pools.find((p) => p.id === selected) ?? null
  byId('pool-detail').hidden = view === null
  if (view) renderDetail(view, me, act)
}

function renderDetail(view: PoolView, me: string, act: Actions): void {
  const info = view.info
  fill(byId('pool-title'), view.name ?? '(unnamed pool)')
  fill(byId('pool-meta'), `id ${view.id}`, info ? ` · created ${new Date(info.createdAt).toLocaleString()}` : ' · waiting for the pool\'s records from the relay', view.error ? ` · ${view.error}` : null)
  fill(byId('members'), ...(info?.members ?? []).map((m) => h('li', {}, h('code', { title: m.did }, who(m.did, me)), ' ',
    m.owner ? 'owner' : m.write ? 'reads and writes' : 'reads',
    m.expiresAt ? ` until ${new Date(m.expiresAt).toLocaleString()}` : null)))
  byId('share-form').hidden = !info?.access.owner
  byId('write-form').hidden = !info?.access.write
  const conflicted = new Set(view.conflicts.flatMap((c) => c.memories as readonly string[]))
  fill(byId('memories'), ...view.memories.map((m) => h('tr', {
    'data-testid': 'memory', class: m.lifecycle === 'archived' ? 'archived' : conflicted.has(m.id) ? 'conflicted' : '',
    title: m.lifecycle === 'archived' ? 'archived: superseded (an update, a merge or a settled conflict) or unused for long' : null,
  },
  h('td', {}, m.subject), h('td', {}, m.predicate), h('td', {}, m.object), h('td', {}, m.type), h('td', {}, m.lifecycle),
  h('td', {}, h('code', { title: m.author }, who(m.author, me))),
  h('td', { title: new Date(m.at).toISOString() }, clock(m.at)),
  h('td', {}, mayForget(info, m.author, me) ? h('button', { type: 'button', title: 'hard delete, on every replica', onclick: () => act.forget(m.id) }, 'forget') : null))))
}

/** The pool's forget rule (docs/pools.md): the author or the owner, or any writer under `forgetBy: 'writers'`. */
function mayForget(info: PoolView['info'], author: string, me: string): boolean {
  if (!info?.access.write) return false
  return author === me || info.access.owner || info.policies.forgetBy === 'writers'
}

export function renderSync(s: Snapshot, relay: string, act: Actions): void {
  const badge = byId('sync-state')
  badge.className = `badge ${s.sync.state}`
  fill(badge, s.sync.state)
  fill(byId('relay-url'), relay)
  const names = new Map(s.pools.map((p) => [p.id, p.name ?? p.id.slice(0, 8)]))
  fill(byId('sync-detail'),
    h('p', {}, 'overall ', h('span', { class: `badge ${s.sync.state}` }, s.sync.state),
      ` · pending out ${s.sync.pending.outgoing} · in ${s.sync.pending.incoming}`),
    s.sync.pools.length === 0 ? h('p', { class: 'hint' }, 'No pool is replicated yet: create or join one.') : null,
    ...s.sync.pools.map((p) => poolLink(p, names.get(p.pool) ?? p.pool.slice(0, 8), act)))
}

function poolLink(p: PoolSyncStatus, name: string, act: Actions): HTMLElement {
  return h('div', { class: 'link', 'data-testid': 'pool-sync', 'data-pool': p.pool },
    h('strong', {}, name), ' ', h('span', { class: `badge ${p.state}` }, p.state),
    h('div', { class: 'hint' }, `${p.links} link(s) · ${p.records} records · pending out ${p.pending.outgoing} / in ${p.pending.incoming}`,
      p.quarantined ? ` · ${p.quarantined} quarantined` : null),
    p.error ? h('div', { class: 'error' }, p.error) : null,
    h('button', { type: 'button', onclick: () => act.reconnect(p.pool) }, 'Reconnect'), ' ',
    h('button', { type: 'button', onclick: () => act.disconnect(p.pool) }, 'Go offline'))
}

export function renderConflicts(s: Snapshot, me: string, act: Actions): void {
  const pools = s.pools.flatMap((p) => p.conflicts.map((c) => ({ p, c })))
  const memory = (p: PoolView, id: string): MemoryRow | undefined => p.memories.find((m) => m.id === id)
  fill(byId('conflicts'),
    pools.length === 0 && s.factConflicts.length === 0 ? h('p', { class: 'hint' }, 'None. Write two different objects for one subject and predicate (on two devices while offline, or here) to see one.') : null,
    ...pools.map(({ p, c }) => h('div', { class: 'conflict', 'data-testid': 'pool-conflict' },
      h('div', {}, h('strong', {}, `${c.subject} · ${c.predicate}`), ` in "${p.name ?? p.id.slice(0, 8)}" (${c.kind})`),
      h('div', { class: 'hint' }, `suggestion: ${c.suggestion.rule}: ${c.suggestion.reason}`),
      ...c.memories.map((id) => {
        const m = memory(p, id)
        return h('div', {}, m ? `${m.object} by ${who(m.author, me)} ` : `${id.slice(0, 8)} `,
          p.info?.access.write ? h('button', { type: 'button', onclick: () => act.resolve(c.id, id) }, 'keep this') : null)
      }))),
    s.factConflicts.length > 0 ? h('h4', {}, 'GMP facts (mem.facts.conflicts)') : null,
    ...s.factConflicts.map((f) => h('div', { class: 'conflict', 'data-testid': 'fact-conflict' },
      h('strong', {}, `${f.subject ?? '?'} · ${f.predicate ?? '?'}`), ` (${f.kind})`, h('div', { class: 'hint' }, f.reason))))
}

const MAX_EVENTS = 200

export function renderTimeline(events: readonly TimelineEvent[]): void {
  fill(byId('timeline'), ...events.slice(-MAX_EVENTS).reverse().map((e) => h('li', { class: `${e.kind} ${e.mine ? 'mine' : 'remote'}` },
    h('time', {}, clock(e.at)), ' ', e.text)))
}
