import { describe, expect, test } from 'vitest'
import { ErrorCode, isMemweaveError } from '../../src/core/errors.js'
import { createRelay } from '../../src/relay/relay.js'
import { describeRedisTarget, parseRedisTarget } from '../../src/relay/redis/target.js'

/** `--redis` (`createRelay({redis})`): the forms a relay node accepts, how they print, and the refusals (issue 33). */

describe('parseRedisTarget', () => {
  test('one Redis: the URL as ioredis takes it', () => {
    expect(parseRedisTarget('redis://127.0.0.1:6379')).toEqual({ kind: 'single', url: 'redis://127.0.0.1:6379' })
    expect(parseRedisTarget('rediss://user:p%40ss@h:1/2')).toEqual({ kind: 'single', url: 'rediss://user:p%40ss@h:1/2' })
  })

  test('a Cluster: redis-cluster:// with seed hosts, or a list of redis:// URLs; default port 6379, IPv6 in brackets', () => {
    const cluster = { kind: 'cluster', nodes: [{ host: '10.0.0.1', port: 7001 }, { host: 'redis-b', port: 6379 }, { host: '::1', port: 7003 }], auth: { tls: false } }
    expect(parseRedisTarget('redis-cluster://10.0.0.1:7001,redis-b,[::1]:7003')).toEqual(cluster)
    expect(parseRedisTarget('redis://10.0.0.1:7001,redis://redis-b,redis://[::1]:7003')).toEqual(cluster)
    expect(parseRedisTarget('rediss-cluster://app:s%3Acret@h:1,h:2')).toEqual({
      kind: 'cluster', nodes: [{ host: 'h', port: 1 }, { host: 'h', port: 2 }], auth: { username: 'app', password: 's:cret', tls: true },
    })
  })

  test('a Sentinel group: the sentinels (default port 26379), the master name, a database', () => {
    expect(parseRedisTarget('redis-sentinel://:pw@s1:26380,s2/mymaster/3')).toEqual({
      kind: 'sentinel', sentinels: [{ host: 's1', port: 26380 }, { host: 's2', port: 26379 }], master: 'mymaster', db: 3, auth: { password: 'pw', tls: false },
    })
    expect(parseRedisTarget('redis-sentinel://s1:1/m')).toMatchObject({ master: 'm', db: 0 })
  })

  test.each([
    ['127.0.0.1:6379', /must be one of/],
    ['http://h:1', /must be one of/],
    ['redis-shard://h:1', /unknown scheme redis-shard:\/\//],
    ['redis://h:99999', /"redis:\/\/h:99999" is not a URL/],
    ['redis://h:1/x', /a database number/],
    ['redis://h:1,rediss://h:2', /share their scheme and credentials/],
    ['redis://:a@h:1,redis://:b@h:2', /share their scheme and credentials/],
    ['redis://h:1,redis://h:2/3', /only database 0/],
    ['redis-cluster://h:1,,h:2', /an empty entry in the host list/],
    ['redis-cluster://h:1/0', /has no path/],
    ['redis-cluster://h:0', /port 0 is not 1-65535/],
    ['redis-cluster://h:1;x', /is not host:port/],
    ['redis-sentinel://s1:1,s2:2', /names its master after the hosts/],
    ['redis-sentinel://s1:1/my master', /names its master/],
    ['redis-sentinel://s1:1/m/x', /only a database number/],
    ['redis-sentinel://u:%zz@s1:1/m', /not valid percent-encoding/],
  ])('%s: INVALID_ARGUMENT on field redis', (text, message) => {
    let err: unknown
    try {
      parseRedisTarget(text)
    } catch (e) {
      err = e
    }
    expect(isMemweaveError(err) && err.code === ErrorCode.INVALID_ARGUMENT && err.details.field === 'redis').toBe(true)
    expect((err as Error).message).toMatch(message)
  })

  test('a refusal never repeats a password', () => {
    for (const text of ['redis://:s3cret@h:1:2', 'redis-cluster://:s3cret@h:x', 'redis-sentinel://:s3cret@h:1', 'redis://:s3cret@h:1,redis://h:2']) {
      expect(() => parseRedisTarget(text)).toThrow()
      try {
        parseRedisTarget(text)
      } catch (err) {
        expect((err as Error).message).not.toContain('s3cret')
      }
    }
  })

  test('createRelay refuses a malformed form before it binds anything', () => {
    expect(() => createRelay({ redis: 'redis-cluster://h:1,,h:2' })).toThrow(/redis: .*empty entry/)
    expect(() => createRelay({ redis: 'redis://h:1', redisWaitReplicas: -1 })).toThrow(/redisWaitReplicas: must be an integer 0-16/)
    expect(() => createRelay({ redisWaitReplicas: 1 })).toThrow(/redisWaitReplicas: is for a cluster node/)
  })
})

describe('describeRedisTarget: what messages and the listening line show', () => {
  test.each([
    ['redis://:pw@h:6379', 'redis://:***@h:6379'],
    ['rediss://user:p%40ss@h:1/2', 'rediss://user:***@h:1/2'],
    ['redis://user@h:1', 'redis://user@h:1'],
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['redis-cluster://app:s3cret@h:1,[::1]:2', 'redis-cluster://app:***@h:1,[::1]:2'],
    ['redis://:s3cret@a:1,redis://:s3cret@b:2', 'redis-cluster://:***@a:1,b:2'],
    ['rediss-sentinel://:s3cret@s1,s2:5/mymaster/2', 'rediss-sentinel://:***@s1:26379,s2:5/mymaster/2'],
    ['redis-sentinel://s1:1/m', 'redis-sentinel://s1:1/m'],
  ])('%s -> %s', (text, shown) => {
    expect(describeRedisTarget(parseRedisTarget(text))).toBe(shown)
  })
})
