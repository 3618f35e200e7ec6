import { toHex } from '../core/bytes.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { PoolGate, PoolWriteGrant } from '../records/pool-gate.js'
import { randomBytes } from './crypto.js'
import { DEFAULT_POLICIES, MAX_POOL_NAME_CHARS, assertDid, assertPrivacy, assertSeconds, assertText, mergePolicies, normalizeTenant, parsePoolId } from './input.js'
import type { PoolParts } from './parts.js'
import { PoolKind, derivePoolId, type AclBody, type CreateBody } from './records.js'
import { denied, type Put } from './replica.js'
import type { CreatePoolOptions, PoolId, PoolInfo, PoolPolicies, Rights, ShareOptions } from './types.js'

const NONE: Rights = { read: false, write: false, owner: false }

/**
 * A pool's life and who may use it: founding (the owner is the founding identity), discovery,
 * sharing and revoking (acl.ts; in an encrypted pool a key is wrapped for each member and rotated
 * on revocation), policies, and the gate other modules' pooled writes pass.
 */
export class PoolSharing {
  readonly #p: PoolParts
  readonly #sharedKinds: readonly string[]

  /** `sharedKinds`: other modules' record kinds that travel in a pool, listed in a revocation's cutoff too. */
  constructor(parts: PoolParts, sharedKinds: readonly string[]) {
    this.#p = parts
    this.#sharedKinds = sharedKinds
  }

  async create(options: CreatePoolOptions = {}): Promise<PoolInfo> {
    const { r } = this.#p
    if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
    const me = r.me()
    const tenant = normalizeTenant(options.tenantId)
    const privacy = assertPrivacy(options.privacy)
    if (privacy.ephemeral) throw invalidArgument('privacy', 'EPHEMERAL is a property of a memory, not of a pool')
    if (privacy.encrypted && privacy.public) throw invalidArgument('privacy', 'an encrypted pool cannot be PUBLIC')
    const name = options.name === undefined || options.name === null ? null : assertText(options.name, 'name', MAX_POOL_NAME_CHARS)
    const policies = mergePolicies(DEFAULT_POLICIES, options.policies)
    await r.ready()
    const nonce = toHex(randomBytes(16))
    const pool = derivePoolId(me.did, nonce, tenant)
    const hlc = r.tick()
    const meta = { kind: PoolKind.CREATE, pool, tenant, author: me.did, hlc }
    let keyId: string | null = null
    if (privacy.encrypted) keyId = await r.ring.generate(pool, 1)
    const body: CreateBody = {
      v: 1, nonce, encrypted: privacy.encrypted, noTraining: privacy.noTraining, publicDefault: privacy.public,
      name: privacy.encrypted ? null : name,
      sealedName: privacy.encrypted && name !== null ? await r.ring.sealText(meta, name, pool, keyId!) : null,
      policies,
    }
    const place = { id: pool, tenant }
    const puts: Put[] = [{ record: await r.sign(place, PoolKind.CREATE, body, hlc) }]
    if (keyId) {
      const key = r.ring.keys(pool)[0]!
      puts.push({ record: await r.sign(place, PoolKind.KEY, await r.ring.wrap(pool, key, me.did)) })
    }
    await r.save(puts)
    if (name !== null) this.#p.show.rememberName(pool, name)
    return this.#p.show.info(r.context(pool))
  }

  async info(poolId: string): Promise<PoolInfo> {
    const pool = parsePoolId(poolId)
    await this.#p.r.ready()
    const ctx = this.#p.r.context(pool)
    if (!ctx.rights.read) throw denied(`${this.#p.r.identity?.did ?? 'this memory'} may not read pool ${pool}`, { pool })
    return this.#p.show.info(ctx)
  }

  async list(): Promise<PoolInfo[]> {
    const { r } = this.#p
    await r.ready()
    const out: PoolInfo[] = []
    for (const pool of r.state.poolIds()) {
      if (!r.state.structure(pool)) continue
      const ctx = r.context(pool)
      if (ctx.rights.read) out.push(await this.#p.show.info(ctx))
    }
    return out.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
  }

  /** The gate other modules' pooled writes pass (src/records/pool-gate.ts). */
  readonly gate: PoolGate = {
    writable: async (poolId: string, author?: string): Promise<PoolWriteGrant> => {
      const pool = parsePoolId(poolId, 'pool')
      const who = author === undefined ? this.#p.r.identity?.did : assertDid(author)
      await this.#p.r.ready()
      const ctx = this.#p.r.context(pool)
      if (!who || !ctx.s.acl.at(who, null, ctx.now).write) throw denied(`${who ?? 'this memory (no identity)'} may not write pool ${pool}`, { pool })
      if (ctx.s.create.body.encrypted) {
        throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, `pool ${pool} is encrypted: it carries only sealed pool memories (mem.pools.write)`, { pool })
      }
      return { pool, tenant: ctx.s.tenant, humans: [ctx.s.owner, ...ctx.s.policies.humans] }
    },
  }

  async access(poolId: string, agentDid?: string): Promise<Rights> {
    const pool = parsePoolId(poolId)
    const did = agentDid === undefined ? this.#p.r.identity?.did : assertDid(agentDid)
    await this.#p.r.ready()
    const ctx = this.#p.r.context(pool)
    return did ? ctx.s.acl.at(did, null, ctx.now) : NONE
  }

  async share(poolId: string, agentDid: string, options: ShareOptions = {}): Promise<void> {
    const { r } = this.#p
    const pool = parsePoolId(poolId)
    const did = assertDid(agentDid)
    if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
    if (options.write !== undefined && typeof options.write !== 'boolean') throw invalidArgument('write', 'must be a boolean')
    const duration = assertSeconds(options.duration, 'duration')
    await r.ready()
    const ctx = r.context(pool)
    r.mustOwn(ctx)
    if (did === ctx.s.owner) return
    const write = options.write === true
    const expiresAt = duration === null ? null : ctx.now + Math.round(duration * 1000)
    // A writer made a reader loses write access the way a revoked member loses all: with a cutoff.
    const downgrade = !write && ctx.s.acl.at(did, null, ctx.now).write
    const body: AclBody = downgrade
      ? { member: did, read: true, write, expiresAt, cutoff: await this.#cutoff(pool, did) }
      : { member: did, read: true, write, expiresAt }
    const puts: Put[] = [{ record: await r.sign(ctx.s, PoolKind.ACL, body) }]
    if (ctx.s.create.body.encrypted) {
      const wrapped = new Set(ctx.s.keys.filter((k) => k.body.member === did).map((k) => k.body.keyId))
      for (const key of r.ring.keys(pool)) {
        if (!wrapped.has(key.keyId)) puts.push({ record: await r.sign(ctx.s, PoolKind.KEY, await r.ring.wrap(pool, key, did)) })
      }
    }
    await r.save(puts)
    await this.#p.upkeep.afterAuthority(pool)
  }

  async revoke(poolId: string, agentDid: string): Promise<void> {
    const { r } = this.#p
    const pool = parsePoolId(poolId)
    const did = assertDid(agentDid)
    await r.ready()
    const ctx = r.context(pool)
    r.mustOwn(ctx)
    if (did === ctx.s.owner) throw invalidArgument('agentDid', 'the owner cannot be revoked')
    const cutoff = await this.#cutoff(pool, did)
    const puts: Put[] = [{ record: await r.sign(ctx.s, PoolKind.ACL, { member: did, read: false, write: false, expiresAt: null, cutoff }) }]
    if (ctx.s.create.body.encrypted) {
      const epoch = ctx.s.epoch + 1
      const keyId = await r.ring.generate(pool, epoch)
      const key = r.ring.keys(pool).find((k) => k.keyId === keyId)!
      for (const member of ctx.s.acl.members(ctx.now)) {
        if (member.did === did) continue
        puts.push({ record: await r.sign(ctx.s, PoolKind.KEY, await r.ring.wrap(pool, key, member.did)) })
      }
    }
    await r.save(puts)
    await this.#p.upkeep.afterAuthority(pool)
  }

  async configure(poolId: string, policies: Partial<PoolPolicies>): Promise<PoolInfo> {
    const { r } = this.#p
    const pool = parsePoolId(poolId)
    await r.ready()
    const ctx = r.context(pool)
    r.mustOwn(ctx)
    const next = mergePolicies(ctx.s.policies, policies)
    await r.save([{ record: await r.sign(ctx.s, PoolKind.POLICY, { policies: next }) }])
    await this.#p.upkeep.afterCommit(pool, [])
    await this.#p.upkeep.afterAuthority(pool)
    return this.#p.show.info(r.context(pool))
  }

  /**
   * The cutoff of a record that takes rights from `did` (AclBody `cutoff`): every record of the
   * member in the pool that this owner holds now, pool records and other modules' alike, sorted.
   * What the owner has not received by then is cut off with the rest (docs/pools.md, "Revocation").
   */
  async #cutoff(pool: PoolId, did: string): Promise<string[]> {
    const ids = this.#p.r.state.idsBy(pool, did)
    if (this.#sharedKinds.length) {
      // Other modules' records, read where they are stored (the pools module derives none of them).
      for (const r of await this.#p.r.log.recordsOfKinds(this.#sharedKinds)) if (r.pool === pool && r.author === did) ids.push(r.id)
    }
    return [...new Set(ids)].sort()
  }
}
