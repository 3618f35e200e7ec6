import { decodeHlc } from '../core/clock.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import type { RecordLog } from '../records/log.js'
import type { StoragePort } from '../storage/port.js'
import type { ArtifactFile } from './format.js'
import {
  assertCommitInput, assertCreateInput, assertImportOptions, assertListOptions, assertMergeInput, assertQuery, assertReadOptions,
  assertSearchOptions,
} from './input.js'
import { commitArtifactFile, createArtifactFile, formatTimestamp, frontmatterOf, mergeArtifactFiles, type MergePart } from './operations.js'
import { ArtifactRecords, type Check } from './records.js'
import { parseQuery, scoreArtifact } from './search.js'
import { parseArtifactSlug, slugFromId, type ArtifactSlug } from './slug.js'
import type { ArtifactState, VersionMeta } from './state.js'
import type {
  Artifact, ArtifactSearchHit, ArtifactStore, ArtifactSummary, ArtifactVersionId, ArtifactVersionInfo, CommitArtifactInput,
  CreateArtifactInput, ImportArtifactOptions, ArtifactImportResult, ListArtifactsOptions, MergeArtifactInput, ProvenanceEntry,
  ReadArtifactOptions, SearchArtifactsOptions,
} from './types.js'
import { assertNoProblems, validateArtifactText, validateSuccessor } from './validate.js'

export interface ArtifactStoreOptions {
  /** Its DID is the agent of every provenance entry this store writes; `anonymous` without one (SMP §7). */
  readonly identity?: Identity | null
  /** Wall clock in ms, injected by tests; timestamps come from a hybrid logical clock over it (a store built on a storage port). */
  readonly now?: () => number
  /** The `awp` version written into new artifacts; default AWP_VERSION (what AWP's tool writes today). */
  readonly awpVersion?: string
  /** A store built on a storage port: whether close() closes it (default true). */
  readonly ownsStorage?: boolean
}

const notFound = (slug: string, field = 'slug'): MemweaveError =>
  new MemweaveError(ErrorCode.NOT_FOUND, `artifact:${slug} does not exist`, { field, slug })

/**
 * SMP knowledge artifacts on the record log. Each version is an immutable `artifact-version`
 * record holding the whole file; heads, forks and conflicts are derived in memory from the
 * records (ArtifactState), which the log keeps caught up, so two handles on one database see each
 * other's versions. A pooled version goes through the Memory's pool gate; writes commit in the
 * log's one transaction per tick. Built alone on a storage port, the store runs a private log.
 */
export class SmpArtifactStore implements ArtifactStore {
  readonly #records: ArtifactRecords
  readonly #awpVersion: string | undefined

  /** On a Memory's record log, or alone on a storage port. */
  constructor(source: StoragePort | RecordLog, options: ArtifactStoreOptions = {}) {
    this.#records = new ArtifactRecords(source, { identity: options.identity ?? null, now: options.now, ownsStorage: options.ownsStorage })
    this.#awpVersion = options.awpVersion
  }

  /** The materialized state (heads, forks, versions). */
  get #state(): ArtifactState {
    return this.#records.state
  }

  // ---- helpers ---------------------------------------------------------------------------------

  #heads(slug: ArtifactSlug, field = 'slug'): VersionMeta[] {
    const heads = this.#state.heads(slug)
    if (heads.length === 0) throw notFound(slug, field)
    return heads
  }

  #artifact(id: ArtifactVersionId, file: ArtifactFile): Artifact {
    const meta = this.#state.versions.get(id)!
    const heads = this.#state.heads(meta.slug)
    return {
      slug: meta.slug as ArtifactSlug,
      versionId: id,
      version: meta.version,
      frontmatter: structuredClone(frontmatterOf(file)),
      body: file.body,
      text: file.text,
      parents: [...meta.parents],
      conflicted: heads.length > 1,
      heads: heads.map((h) => h.id),
      pool: meta.pool,
    }
  }

  #summary(slug: string, file: ArtifactFile): ArtifactSummary {
    const fm = frontmatterOf(file)
    return {
      slug: slug as ArtifactSlug,
      id: fm.id,
      title: fm.title,
      version: fm.version,
      confidence: fm.confidence ?? null,
      tags: [...(fm.tags ?? [])],
      authors: [...fm.authors],
      lastModified: fm.lastModified ?? null,
      conflicted: this.#state.heads(slug).length > 1,
      pool: this.#state.heads(slug)[0]?.pool ?? null,
    }
  }

  /** CONFLICT unless the artifact is at exactly `expected` with one head. */
  #expect(slug: string, heads: readonly VersionMeta[], expected: number): MemweaveError | null {
    if (heads.length === 1 && heads[0]!.version === expected) return null
    const actual = heads.length === 1 ? `is at version ${heads[0]!.version}` : `has forked (heads at versions ${heads.map((h) => h.version).join(', ')})`
    return new MemweaveError(ErrorCode.CONFLICT, `artifact:${slug} ${actual}, not the expected version ${expected}`, {
      field: 'expectedVersion', slug, expected, actual: heads.map((h) => h.version),
    })
  }

  /** A check that the heads are still exactly `ids` when the write commits. */
  #unchanged(slug: string, ids: readonly string[], field: string): Check {
    const want = [...ids].sort().join()
    return (state) => {
      const heads = state.heads(slug)
      if (heads.map((h) => h.id).sort().join() === want) return null
      return new MemweaveError(ErrorCode.CONFLICT, `artifact:${slug} changed while this write was being prepared (now at version ${heads[0]?.version}); read it again and retry`, { field, slug })
    }
  }

  // ---- SMP operations --------------------------------------------------------------------------

  create(slug: string, input: CreateArtifactInput = {}): Promise<Artifact> {
    return this.#records.track(async () => {
      const s = parseArtifactSlug(slug)
      const i = assertCreateInput(input)
      await this.#records.ready()
      const exists = (): MemweaveError => new MemweaveError(ErrorCode.CONFLICT, `artifact:${s} already exists`, { field: 'slug', slug: s })
      if (this.#state.has(s)) throw exists()
      const grant = await this.#records.grant(i.pool)
      const { hlc, stamp } = this.#records.tick()
      const file = createArtifactFile(s, i, stamp, this.#awpVersion)
      const id = await this.#records.submit({ slug: s, version: 1, parents: [], text: file.text }, hlc, (state) => (state.has(s) ? exists() : null), grant)
      return this.#artifact(id, file)
    })
  }

  commit(slug: string, input: CommitArtifactInput): Promise<Artifact> {
    return this.#records.track(async () => {
      const s = parseArtifactSlug(slug)
      const i = assertCommitInput(input)
      await this.#records.ready()
      const heads = this.#heads(s)
      let parent = heads[0]!
      if (i.basedOn !== undefined) {
        const base = this.#state.versions.get(i.basedOn)
        if (!base || base.slug !== s) throw invalidArgument('basedOn', `${i.basedOn} is not a version of artifact:${s}`)
        parent = base
      } else if (heads.length > 1) {
        throw new MemweaveError(ErrorCode.CONFLICT, `artifact:${s} has forked (heads at versions ${heads.map((h) => h.version).join(', ')}); resolve it with merge("${s}", "${s}") or commit with basedOn`, { field: 'slug', slug: s })
      }
      if (i.expectedVersion !== undefined) {
        const error = this.#expect(s, heads, i.expectedVersion)
        if (error) throw error
      }
      const grant = await this.#records.grant(parent.pool)
      const { hlc, stamp } = this.#records.tick()
      const file = commitArtifactFile(await this.#records.file(parent.id), s, i, stamp)
      // Without expectedVersion a commit that raced another one on the same parent is kept as a fork.
      const check = i.expectedVersion === undefined ? null : this.#unchanged(s, heads.map((h) => h.id), 'expectedVersion')
      const id = await this.#records.submit({ slug: s, version: frontmatterOf(file).version, parents: [parent.id], text: file.text }, hlc, check, grant)
      return this.#artifact(id, file)
    })
  }

  merge(target: string, source: string, input: MergeArtifactInput = {}): Promise<Artifact> {
    return this.#records.track(async () => {
      const t = parseArtifactSlug(target, 'target')
      const src = parseArtifactSlug(source, 'source')
      const i = assertMergeInput(input)
      await this.#records.ready()
      const heads = this.#heads(t, 'target')
      const sourceHeads = src === t ? heads : this.#heads(src, 'source')
      if (i.expectedVersion !== undefined) {
        const error = this.#expect(t, heads, i.expectedVersion)
        if (error) throw error
      }
      if (src === t && heads.length < 2) throw invalidArgument('source', `artifact:${t} has not forked: there is nothing to merge into itself`)
      const base = await this.#records.file(heads[0]!.id)
      const parts: MergePart[] = []
      // A fork is resolved by merging its other heads into the winner; a head whose commit did not
      // change the body (or has the winner's body) brings only its metadata.
      for (const head of heads.slice(1)) {
        const file = await this.#records.file(head.id)
        const parentBodies = await Promise.all(head.parents.map(async (p) => (this.#state.versions.has(p) ? (await this.#records.file(p)).body : null)))
        parts.push({ file, appendBody: file.body !== base.body && !parentBodies.includes(file.body) })
      }
      if (src !== t) parts.push({ file: await this.#records.file(sourceHeads[0]!.id), appendBody: true })
      const grant = await this.#records.grant(heads[0]!.pool)
      const { hlc, stamp } = this.#records.tick()
      const version = Math.max(...heads.map((h) => h.version)) + 1
      const file = mergeArtifactFiles(base, t, parts, { message: i.message, confidence: i.confidence, version }, stamp)
      const strict = i.expectedVersion !== undefined || heads.length > 1
      const check = strict ? this.#unchanged(t, heads.map((h) => h.id), i.expectedVersion !== undefined ? 'expectedVersion' : 'target') : null
      const id = await this.#records.submit({ slug: t, version, parents: heads.map((h) => h.id), text: file.text }, hlc, check, grant)
      return this.#artifact(id, file)
    })
  }

  async read(slug: string, options: ReadArtifactOptions = {}): Promise<Artifact> {
    const s = parseArtifactSlug(slug)
    const o = assertReadOptions(options)
    await this.#records.ready()
    const heads = this.#heads(s)
    let meta = heads[0]!
    if (typeof o.version === 'string') {
      const v = this.#state.versions.get(o.version)
      if (!v || v.slug !== s) throw new MemweaveError(ErrorCode.NOT_FOUND, `${o.version} is not a version of artifact:${s}`, { field: 'version', slug: s })
      meta = v
    } else if (typeof o.version === 'number') {
      const n = o.version
      const candidates = this.#state.all(s).filter((v) => v.version === n)
      // Two versions share a number only across a fork: prefer the one the winning head descends from.
      const v = candidates.find((c) => this.#state.isAncestor(c.id, heads[0]!.id)) ?? candidates.at(-1)
      if (!v) {
        const first = Math.min(...this.#state.all(s).map((x) => x.version))
        const why = n < first ? ` (this store holds versions ${first} and later: the artifact was imported at version ${first})` : ''
        throw new MemweaveError(ErrorCode.NOT_FOUND, `artifact:${s} has no version ${n}${why}`, { field: 'version', slug: s })
      }
      meta = v
    }
    return this.#artifact(meta.id, await this.#records.file(meta.id))
  }

  async log(slug: string): Promise<ProvenanceEntry[]> {
    const s = parseArtifactSlug(slug)
    await this.#records.ready()
    return structuredClone([...frontmatterOf(await this.#records.file(this.#heads(s)[0]!.id)).provenance])
  }

  async history(slug: string): Promise<ArtifactVersionInfo[]> {
    const s = parseArtifactSlug(slug)
    await this.#records.ready()
    this.#heads(s)
    return this.#state.all(s).map((v) => ({
      versionId: v.id,
      version: v.version,
      parents: [...v.parents],
      author: v.author,
      writtenAt: formatTimestamp(decodeHlc(v.hlc).wall),
      head: this.#state.isHead(v.id),
    }))
  }

  async list(options: ListArtifactsOptions = {}): Promise<ArtifactSummary[]> {
    const o = assertListOptions(options)
    await this.#records.ready()
    const tag = o.tag?.toLowerCase()
    const out: ArtifactSummary[] = []
    for (const slug of this.#state.slugs()) {
      const summary = this.#summary(slug, await this.#records.file(this.#state.heads(slug)[0]!.id))
      if (tag === undefined || summary.tags.some((t) => t.toLowerCase() === tag)) out.push(summary)
    }
    return out
  }

  async search(query: string, options: SearchArtifactsOptions = {}): Promise<ArtifactSearchHit[]> {
    const q = parseQuery(assertQuery(query))
    const o = assertSearchOptions(options)
    await this.#records.ready()
    const hits: ArtifactSearchHit[] = []
    for (const slug of this.#state.slugs()) {
      const file = await this.#records.file(this.#state.heads(slug)[0]!.id)
      const scored = scoreArtifact(q, frontmatterOf(file), file.body)
      if (scored) hits.push({ ...this.#summary(slug, file), ...scored })
    }
    hits.sort((a, b) => b.score - a.score || (b.confidence ?? -1) - (a.confidence ?? -1) || (a.slug < b.slug ? -1 : 1))
    return o.limit === undefined ? hits : hits.slice(0, o.limit)
  }

  import(text: string, options: ImportArtifactOptions = {}): Promise<ArtifactImportResult> {
    return this.#records.track(async () => {
      if (typeof text !== 'string') throw invalidArgument('text', 'must be a string')
      const o = assertImportOptions(options)
      if (o.slug !== undefined) parseArtifactSlug(o.slug)
      const checked = validateArtifactText(text, { slug: o.slug })
      assertNoProblems(checked.problems)
      const file = checked.file!
      const fm = frontmatterOf(file)
      const s = slugFromId(fm.id)!
      await this.#records.ready()
      const all = this.#state.all(s)
      if (all.length === 0) {
        const grant = await this.#records.grant(o.pool)
        const { hlc } = this.#records.tick()
        const id = await this.#records.submit({ slug: s, version: fm.version, parents: [], text }, hlc, (state) =>
          state.has(s) ? new MemweaveError(ErrorCode.CONFLICT, `artifact:${s} was created while it was being imported; import again`, { field: 'id', slug: s }) : null,
        grant)
        return { slug: s, versionId: id, version: fm.version, status: 'created' }
      }
      const stored = await Promise.all(all.map(async (v) => ({ v, file: await this.#records.file(v.id) })))
      const same = stored.find((x) => x.file.text === text)
      if (same) return { slug: s, versionId: same.v.id, version: same.v.version, status: 'unchanged' }
      const heads = this.#state.heads(s)
      // The deepest stored version this file continues (same artifact, later version, provenance extended).
      const parents = stored.filter((x) => validateSuccessor(frontmatterOf(x.file), fm).length === 0).sort((a, b) => b.v.version - a.v.version)
      const parent = parents.find((x) => x.v.id === heads[0]!.id) ?? parents[0]
      if (!parent) {
        // Older than what is stored, or a different history under the same slug (SMP §2.5, §2.6).
        const winner = frontmatterOf(stored.find((x) => x.v.id === heads[0]!.id)!.file)
        const problems = validateSuccessor(winner, fm)
        const first = problems[0] ?? { field: 'provenance', message: 'does not continue any stored version' }
        throw new MemweaveError(
          ErrorCode.CONFLICT,
          `${first.field}: ${first.message} (artifact:${s} is stored at version ${winner.version}; this file is version ${fm.version})`,
          { field: first.field, slug: s, problems },
        )
      }
      const status = heads.length === 1 && parent.v.id === heads[0]!.id ? 'updated' : 'forked'
      const check = status === 'updated' ? this.#unchanged(s, [parent.v.id], 'version') : null
      const grant = await this.#records.grant(parent.v.pool)
      const { hlc } = this.#records.tick()
      const id = await this.#records.submit({ slug: s, version: fm.version, parents: [parent.v.id], text }, hlc, check, grant)
      return { slug: s, versionId: id, version: fm.version, status }
    })
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  async refresh(): Promise<void> {
    await this.#records.ready()
  }

  flush(): Promise<void> {
    return this.#records.flush()
  }

  /** Commits pending writes, then (for a store that owns its storage) closes the storage. Idempotent. */
  close(): Promise<void> {
    return this.#records.close()
  }
}
