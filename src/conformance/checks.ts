import { contentFactId } from '../core/ids.js'
import { verify } from '../core/ed25519.js'
import { publicKeyFromSeed } from '../core/ed25519.js'
import { bootstrapInterval, mulberry32 } from './bootstrap.js'
import type { CheckResult, ConformanceMemory, ConformanceSession, ConformanceStore, Direction, SessionFactory } from './types.js'

/**
 * The checks of GMP §8.3 and the interface contract §10, each capability tested in both
 * directions where the spec asks (HARD_DELETE, MULTI_TENANT, CRYPTOGRAPHIC_PROVENANCE) and each
 * against the store's read path, never its own success reports (§6.4).
 */

const ALL_BUDGET = { budgetTokens: 10_000_000 }
const key = (ref: unknown): string => JSON.stringify(ref)
const cps = (s: string): number => [...s].length

export interface CheckContext {
  readonly open: SessionFactory
  readonly declared: ReadonlySet<string>
  readonly seed: number
}

export type Check = (ctx: CheckContext) => Promise<CheckResult[]>

function result(capability: string, direction: Direction, failures: readonly boolean[], detail: string, seed: number): CheckResult {
  const failed = failures.filter(Boolean).length
  const metric = failures.length === 0 ? 1 : failed / failures.length
  const interval = bootstrapInterval(failures, seed)
  // §8.2: a direction passes only when its interval excludes the failing outcome.
  const pass = failures.length > 0 && interval[1] === 0
  return { capability, direction, pass, metric, probes: failures.length, interval, detail: pass ? detail : `${detail}; ${failed}/${failures.length} probes failed` }
}

async function withSession<T>(ctx: CheckContext, body: (s: ConformanceSession) => Promise<T>): Promise<T> {
  const session = await ctx.open()
  try {
    return await body(session)
  } finally {
    await session.close?.()
  }
}

function isCapabilityError(err: unknown): boolean {
  const e = err as { code?: string; name?: string; error?: string }
  return e?.code === 'CAPABILITY_NOT_SUPPORTED' || e?.name === 'CapabilityNotSupported' || e?.error === 'capability_not_supported'
}

async function raisesCapability(fn: () => Promise<unknown>): Promise<boolean> {
  try {
    await fn()
    return false
  } catch (err) {
    return isCapabilityError(err)
  }
}

const contains = (ms: readonly ConformanceMemory[], ref: unknown): boolean => ms.some((m) => key(m.ref) === key(ref))

/** Always on: undeclared operations raise CapabilityNotSupported (§7.2), and dependencies hold (§7.3). */
export const declarationCheck: Check = async (ctx) => {
  return withSession(ctx, async ({ store }) => {
    const d = ctx.declared
    const probes: boolean[] = []
    const notes: string[] = []
    const expectRaise = async (cap: string, label: string, fn: () => Promise<unknown>): Promise<void> => {
      if (d.has(cap)) return
      const ok = await raisesCapability(fn)
      probes.push(!ok)
      if (!ok) notes.push(`${label} did not raise CapabilityNotSupported`)
    }
    await expectRaise('supersession_chain', 'supersede', () => store.supersede('x', 'y'))
    await expectRaise('hard_delete', 'delete', () => store.delete('x'))
    await expectRaise('audit', 'audit', () => store.audit())
    await expectRaise('bi_temporal', 'retrieve(asOf)', () => store.retrieve('x', { budgetTokens: 10, asOf: '2026-01-01T00:00:00+00:00' }))
    await expectRaise('multi_tenant', 'retrieve(tenantId)', () => store.retrieve('x', { budgetTokens: 10, tenantId: 'T' }))
    await expectRaise('multi_tenant', 'write(tenantId)', () => store.write('x', { tenantId: 'T' }))
    await expectRaise('cryptographic_provenance', 'write(signingKey)', () => store.write('x', { signingKey: new Uint8Array(32).fill(1) }))
    const deps: Array<[string, string]> = [['bi_temporal', 'supersession_chain'], ['cryptographic_provenance', 'provenance']]
    for (const [a, b] of deps) {
      const ok = !d.has(a) || d.has(b)
      probes.push(!ok)
      if (!ok) notes.push(`${a} declared without ${b}`)
    }
    const again = new Set(await store.capabilities())
    const stable = again.size === d.size && [...d].every((c) => again.has(c))
    probes.push(!stable)
    if (!stable) notes.push('capabilities() changed between calls')
    if (d.has('concurrency_control')) {
      probes.push(true)
      notes.push('concurrency_control is reserved (§7.4) and must not be claimed')
    }
    return [result('declaration', 'declaration', probes, notes.join('; ') || 'undeclared operations raise; dependencies hold; stable set', ctx.seed)]
  })
}

/** Always on: the budget contract (§4.2) and determinism (§4.3). */
export const retrievalContractCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const words = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor']
    for (let i = 0; i < 24; i++) await store.write(`contract probe ${i}: ${words[i % 8]} ${words[(i * 3) % 8]} ${'x'.repeat(i * 3)}`)
    await store.flush()
    const budgetFailures: boolean[] = []
    const determinismFailures: boolean[] = []
    for (const budget of [0, 25, 60, 150, 400]) {
      for (const q of ['amber', 'cobalt dune', 'contract probe', '']) {
        const a = await store.retrieve(q, { budgetTokens: budget })
        const b = await store.retrieve(q, { budgetTokens: budget })
        budgetFailures.push(a.reduce((n, m) => n + cps(m.content), 0) > budget)
        determinismFailures.push(a.map((m) => key(m.ref)).join() !== b.map((m) => key(m.ref)).join())
      }
    }
    return [
      result('budget', 'single', budgetFailures, 'returned content never exceeds budget_tokens (character proxy)', ctx.seed),
      result('determinism', 'single', determinismFailures, 'same state, query and options give the same list in the same order', ctx.seed),
    ]
  })

export const auditCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const refs: unknown[] = []
    for (let i = 0; i < 10; i++) refs.push(await store.write(`audit probe ${i} ${mulberryWord(ctx.seed + i)}`))
    await store.flush()
    const failures: boolean[] = []
    let all = await store.audit()
    failures.push(all.length !== 10)
    for (let i = 0; i < 10; i++) failures.push(!all.some((m) => key(m.ref) === key(refs[i]) && m.content.startsWith(`audit probe ${i} `)))
    if (ctx.declared.has('supersession_chain')) {
      const succ = await store.supersede(refs[0], 'audit probe 0 revised')
      await store.flush()
      all = await store.audit()
      const old = all.find((m) => key(m.ref) === key(refs[0]))
      failures.push(!old || key(old.supersededBy) !== key(succ) || !contains(all, succ))
    }
    if (ctx.declared.has('hard_delete')) {
      await store.delete(refs[5])
      await store.flush()
      all = await store.audit()
      failures.push(contains(all, refs[5]) || !contains(all, refs[6]))
    }
    return [result('audit', 'single', failures, 'audit() yields every retrievable fact incl. superseded, excl. deleted', ctx.seed)]
  })

export const supersessionCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const failures: boolean[] = []
    const f1 = await store.write('The sky over Zorbulon is green')
    const f2 = await store.supersede(f1, 'The sky over Zorbulon is violet')
    await store.flush()
    const all = await store.audit().catch(() => null)
    if (all) {
      const old = all.find((m) => key(m.ref) === key(f1))
      failures.push(!old, key(old?.supersededBy) !== key(f2), !contains(all, f2))
    }
    for (const q of ['sky Zorbulon', 'The sky over Zorbulon is green', '']) {
      const got = await store.retrieve(q, ALL_BUDGET)
      failures.push(contains(got, f1) || !contains(got, f2))
    }
    const fresh = await store.supersede('no-such-ref-0000', 'Zorbulon has two moons')
    await store.flush()
    failures.push(!contains(await store.retrieve('Zorbulon moons', ALL_BUDGET), fresh))
    return [result('supersession_chain', 'single', failures, 'current queries return heads only; audit keeps the superseded version linked; unknown old ref writes fresh', ctx.seed)]
  })

export const biTemporalCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const failures: boolean[] = []
    const iso = (d: string): string => `${d}T00:00:00+00:00`
    // Interface contract §10: valid from 10, closed at 20 by its successor.
    const f = await store.write('Widget price is 10 credits', { validFrom: iso('2020-01-10') })
    const g = await store.supersede(f, 'Widget price is 12 credits', { validFrom: iso('2020-01-20') })
    await store.flush()
    failures.push(!contains(await store.retrieve('Widget price', { ...ALL_BUDGET, asOf: iso('2020-01-15') }), f))
    failures.push(contains(await store.retrieve('Widget price', { ...ALL_BUDGET, asOf: iso('2020-01-25') }), f))
    failures.push(!contains(await store.retrieve('Widget price', { ...ALL_BUDGET, asOf: iso('2020-01-25') }), g))
    failures.push(contains(await store.retrieve('Widget price', { ...ALL_BUDGET, asOf: iso('2020-01-05') }), f))
    // The Rome / Milan / Turin chain: each as-of instant resolves to the version valid then.
    const rome = await store.write('Aria lives in Rome', { validFrom: iso('2020-01-01'), metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
    const milan = await store.supersede(rome, 'Aria lives in Milan', { validFrom: iso('2022-01-01'), metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
    const turin = await store.supersede(milan, 'Aria lives in Turin', { validFrom: iso('2024-01-01'), metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Turin' } })
    await store.flush()
    const chain = [rome, milan, turin]
    const expectAt = async (at: string | null, want: unknown): Promise<void> => {
      const got = await store.retrieve('where does Aria live', { ...ALL_BUDGET, asOf: at })
      for (const ref of chain) failures.push(contains(got, ref) !== (key(ref) === key(want)))
    }
    await expectAt(iso('2019-06-01'), null)
    await expectAt(iso('2021-06-01'), rome)
    await expectAt(iso('2022-01-01'), milan)
    await expectAt(iso('2023-06-01'), milan)
    await expectAt(iso('2025-06-01'), turin)
    await expectAt(null, turin)
    const audit = await store.audit().catch(() => null)
    if (audit) {
      const byRef = new Map(audit.map((m) => [key(m.ref), m]))
      failures.push(!sameInstant(byRef.get(key(rome))?.validUntil, iso('2022-01-01')))
      failures.push(!sameInstant(byRef.get(key(milan))?.validUntil, iso('2024-01-01')))
      failures.push(byRef.get(key(turin))?.validUntil != null)
    }
    return [result('bi_temporal', 'single', failures, 'as_of=t resolves to the version valid at t; supersede closes the predecessor at the successor\'s valid_from', ctx.seed)]
  })

function sameInstant(a: string | null | undefined, b: string): boolean {
  return typeof a === 'string' && Date.parse(a) === Date.parse(b)
}

export const hardDeleteCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const n = 30
    const facts: Array<{ ref: unknown; content: string; word: string }> = []
    for (let i = 0; i < n; i++) {
      const word = `${mulberryWord(ctx.seed * 31 + i)}${i}`
      const content = `deletion probe ${i}: ${word} keeps a secret`
      facts.push({ ref: await store.write(content, { validFrom: '2021-03-01T00:00:00+00:00' }), content, word })
    }
    await store.flush()
    const deleted = facts.filter((_, i) => i % 3 === 0)
    const survivors = facts.filter((_, i) => i % 3 !== 0)
    const returns: boolean[] = []
    for (const d of deleted) returns.push((await store.delete(d.ref)) !== true)
    for (const d of deleted.slice(0, 3)) returns.push((await store.delete(d.ref)) !== false)
    returns.push((await store.delete('never-written-ref')) !== false)
    await store.flush()
    const hasAudit = ctx.declared.has('audit')
    const hasBi = ctx.declared.has('bi_temporal')
    const audit = hasAudit ? await store.audit() : []
    const generic = await store.retrieve('deletion probe secret', ALL_BUDGET)
    const empty = await store.retrieve('', ALL_BUDGET)
    const leaks: boolean[] = []
    for (const d of deleted) {
      const surfaces = [
        await store.retrieve(d.content, ALL_BUDGET),
        await store.retrieve(d.word, ALL_BUDGET),
        generic,
        empty,
        audit,
        ...(hasBi
          ? [await store.retrieve(d.word, { ...ALL_BUDGET, asOf: '2021-06-01T00:00:00+00:00' }), await store.retrieve(d.word, { ...ALL_BUDGET, asOf: '2999-01-01T00:00:00+00:00' })]
          : []),
      ]
      for (const s of surfaces) leaks.push(s.some((m) => key(m.ref) === key(d.ref) || m.content === d.content))
    }
    const lost: boolean[] = []
    for (const s of survivors) {
      lost.push(!contains(await store.retrieve(s.content, ALL_BUDGET), s.ref))
      if (hasAudit) lost.push(!contains(audit, s.ref))
    }
    return [
      result('hard_delete', 'leakage', leaks, 'deleted facts never reappear on retrieve (any query, as_of) or audit', ctx.seed),
      result('hard_delete', 'over-restriction', lost, 'every survivor is still retrievable and audited (survivor recall = 1)', ctx.seed + 1),
      result('hard_delete', 'single', returns, 'delete returns true once, then false; false for unknown refs', ctx.seed + 2),
    ]
  })

export const multiTenantCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const tenants = ['tenant-A', 'tenant-B'] as const
    const owned = new Map<string, Array<{ ref: unknown; content: string }>>()
    for (const t of tenants) {
      const list: Array<{ ref: unknown; content: string }> = []
      for (let i = 0; i < 10; i++) {
        // Half the contents are identical across tenants: identity is tenant-scoped (§1.2).
        const content = i < 5 ? `shared tenancy probe ${i}` : `${t} private probe ${i} ${mulberryWord(ctx.seed + i)}`
        list.push({ ref: await store.write(content, { tenantId: t }), content })
      }
      owned.set(t, list)
    }
    const untenanted = await store.write('shared tenancy probe 0')
    await store.flush()
    const leaks: boolean[] = []
    const withheld: boolean[] = []
    const allContents = [...owned.values()].flat().map((f) => f.content)
    for (const t of tenants) {
      const mine = new Set(owned.get(t)!.map((f) => key(f.ref)))
      for (const q of [...allContents, 'probe', '']) {
        const got = await store.retrieve(q, { ...ALL_BUDGET, tenantId: t })
        leaks.push(got.some((m) => !mine.has(key(m.ref)) || m.tenantId !== t))
      }
      for (const f of owned.get(t)!) withheld.push(!contains(await store.retrieve(f.content, { ...ALL_BUDGET, tenantId: t }), f.ref))
    }
    const defaultView = await store.retrieve('shared tenancy probe', { ...ALL_BUDGET, tenantId: null })
    leaks.push(defaultView.some((m) => m.tenantId !== null))
    withheld.push(!contains(defaultView, untenanted))
    const a0 = owned.get('tenant-A')![0]!.ref
    const b0 = owned.get('tenant-B')![0]!.ref
    leaks.push(key(a0) === key(b0))
    return [
      result('multi_tenant', 'leakage', leaks, 'no memory of another tenant surfaces (cross-tenant leakage = 0)', ctx.seed),
      result('multi_tenant', 'over-restriction', withheld, 'every fact of the querying tenant is returned (in-tenant recall = 1)', ctx.seed + 1),
    ]
  })

export const provenanceCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const failures: boolean[] = []
    for (let i = 0; i < 5; i++) {
      const session = `session-${i}-${ctx.seed}`
      const ref = await store.write(`provenance probe ${i}`, { metadata: { session_id: session } })
      await store.flush()
      const m = (await store.retrieve(`provenance probe ${i}`, ALL_BUDGET)).find((x) => key(x.ref) === key(ref))
      failures.push(!m?.source || !m.source.writeId || !m.source.writtenAt || Number.isNaN(Date.parse(m.source.writtenAt)) || m.source.writtenBy !== session)
    }
    if (ctx.declared.has('audit')) for (const m of await store.audit()) failures.push(!m.source?.writeId || !m.source.writtenAt)
    return [result('provenance', 'single', failures, 'every memory carries source.write_id and written_at; written_by records the session', ctx.seed)]
  })

export const cryptoProvenanceCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const rand = mulberry32(ctx.seed)
    const seed = Uint8Array.from({ length: 32 }, () => Math.floor(rand() * 256))
    const publicKey = await publicKeyFromSeed(seed)
    const valid: boolean[] = []
    const tamper: boolean[] = []
    for (let i = 0; i < 8; i++) {
      const content = `signed probe ${i} (seed ${ctx.seed})`
      const tenantId = ctx.declared.has('multi_tenant') && i % 2 === 1 ? 'signed-tenant' : null
      const ref = await store.write(content, { signingKey: seed, ...(tenantId ? { tenantId } : {}) })
      await store.flush()
      const m = (await store.retrieve(content, { ...ALL_BUDGET, ...(tenantId ? { tenantId } : {}) })).find((x) => key(x.ref) === key(ref))
      const sig = m?.source?.signature
      const pub = m?.source?.publicKey
      if (!m || !sig || !pub) {
        valid.push(true)
        continue
      }
      const factId = contentFactId(m.content, m.tenantId)
      valid.push(!(sameBytes(pub, publicKey) && (await verify(sig, factId, pub))))
      tamper.push(await verify(sig, contentFactId(`${m.content}X`, m.tenantId), pub))
      const flipped = sig.slice()
      flipped[i % 64]! ^= 1 << (i % 8)
      tamper.push(await verify(flipped, factId, pub))
    }
    return [
      result('cryptographic_provenance', 'validity', valid, 'signed writes verify under the supplied key over BLAKE2b-128(content ‖ 0x1f ‖ tenant)', ctx.seed),
      result('cryptographic_provenance', 'tamper-acceptance', tamper, 'altered content or a flipped signature bit never verifies', ctx.seed + 1),
    ]
  })

export const conflictCheck: Check = async (ctx) =>
  withSession(ctx, async ({ store }) => {
    const flagged: boolean[] = []
    const falseFlags: boolean[] = []
    const md = (subject: string, predicate: string, object: string) => ({ metadata: { subject, predicate, object } })
    const a = await store.write('Zorbulon capital is Alphaville', md('Zorbulon', 'capital', 'Alphaville'))
    const b = await store.write('Zorbulon capital is Betatown', md('Zorbulon', 'capital', 'Betatown'))
    const c = await store.write('Zorbulon anthem is Gamma', md('Zorbulon', 'anthem', 'Gamma'))
    const d = await store.write('Quuxland capital is Deltaburg', md('Quuxland', 'capital', 'Deltaburg'))
    await store.flush()
    const got = await store.retrieve('Zorbulon capital', ALL_BUDGET)
    const markers = got.some((m) => (m.conflictsWith?.length ?? 0) > 0)
    const marked = (x: unknown, y: unknown): boolean =>
      got.some((m) => key(m.ref) === key(x) && (m.conflictsWith ?? []).some((r) => key(r) === key(y)))
    if (markers) {
      flagged.push(!marked(a, b), !marked(b, a))
      for (const m of got) {
        if ([c, d].some((r) => key(r) === key(m.ref))) falseFlags.push((m.conflictsWith?.length ?? 0) > 0)
      }
    } else {
      // The contract's weakest acceptable signal: audit() exposes both sides.
      const audit = ctx.declared.has('audit') ? await store.audit() : []
      flagged.push(!(contains(audit, a) && contains(audit, b)))
    }
    flagged.push(!(contains(got, a) && contains(got, b)))
    const out = [result('conflict_detection', 'single', flagged, 'two current facts with one subject and predicate but different objects are flagged and both kept', ctx.seed)]
    if (falseFlags.length) out.push(result('conflict_detection', 'over-restriction', falseFlags, 'facts of another subject or predicate are not flagged', ctx.seed + 1))
    return out
  })

export const crossSessionCheck: Check = async (ctx) =>
  withSession(ctx, async (session) => {
    if (!session.secondSession) {
      return [result('cross_session_propagation', 'single', [true], 'the harness cannot open a second session on this store', ctx.seed)]
    }
    const a = session.store
    const b = await session.secondSession()
    const failures: boolean[] = []
    const f = await a.write('cross-session probe: the vault code is 4711')
    await a.flush()
    failures.push(!contains(await b.retrieve('vault code', ALL_BUDGET), f))
    if (ctx.declared.has('supersession_chain')) {
      const g = await a.supersede(f, 'cross-session probe: the vault code is 1174')
      await a.flush()
      const seen = await b.retrieve('vault code', ALL_BUDGET)
      failures.push(contains(seen, f) || !contains(seen, g))
      if (ctx.declared.has('hard_delete')) {
        await a.delete(g)
        await a.flush()
        const after = await b.retrieve('vault code', ALL_BUDGET)
        failures.push(contains(after, g))
        if (ctx.declared.has('audit')) failures.push(contains(await b.audit(), g))
      }
    } else if (ctx.declared.has('hard_delete')) {
      await a.delete(f)
      await a.flush()
      failures.push(contains(await b.retrieve('vault code', ALL_BUDGET), f))
    }
    const h = await b.write('cross-session probe: written by the second session')
    await b.flush()
    failures.push(!contains(await a.retrieve('written by the second session', ALL_BUDGET), h))
    return [result('cross_session_propagation', 'single', failures, 'writes, supersessions and deletes in one session are visible in another', ctx.seed)]
  })

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'qu', 'xa', 'po']

/** A deterministic nonsense word, so probes match nothing but themselves. */
function mulberryWord(seed: number): string {
  const rand = mulberry32(seed)
  let w = ''
  for (let i = 0; i < 4; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)]
  return w
}

/** Which check covers which declared capability. */
export const CAPABILITY_CHECKS: ReadonlyArray<[string, Check]> = [
  ['audit', auditCheck],
  ['supersession_chain', supersessionCheck],
  ['bi_temporal', biTemporalCheck],
  ['hard_delete', hardDeleteCheck],
  ['multi_tenant', multiTenantCheck],
  ['provenance', provenanceCheck],
  ['cryptographic_provenance', cryptoProvenanceCheck],
  ['conflict_detection', conflictCheck],
  ['cross_session_propagation', crossSessionCheck],
]

export type { ConformanceStore }
