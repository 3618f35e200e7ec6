import { describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { runCli } from '../../src/cli/main.js'
import { captureCli } from '../helpers/processes.js'

/** `memweave relay --redis` at the command line: its usage errors, and a Redis that cannot be reached. */


describe('memweave relay --redis', () => {
  test.each([
    [['relay', '--dir', '/tmp/x', '--redis', 'redis://127.0.0.1:6379'], /--dir and --redis exclude each other[\s\S]*Usage: memweave relay/],
    [['relay', '--connections-per-minute', '0'], /--connections-per-minute must be a positive integer/],
    [['relay', '--connections-per-minute', 'many'], /--connections-per-minute must be a positive integer/],
    // Issue 33: malformed Cluster and Sentinel forms, refused before anything starts, no password repeated.
    [['relay', '--redis', 'redis-cluster://:s3cret@h:1,,h:2'], /^memweave relay: --redis: "" is not host:port \(an empty entry in the host list\)\n[\s\S]*Usage: memweave relay/],
    [['relay', '--redis', 'redis-sentinel://:s3cret@s1:26379,s2:26379'], /--redis: a redis-sentinel:\/\/ URL names its master after the hosts/],
    [['relay', '--redis', 'redis-shard://h:1'], /--redis: unknown scheme redis-shard:\/\//],
    [['relay', '--redis', 'redis://h:1', '--redis-wait-replicas', '17'], /--redis-wait-replicas must be an integer 0-16/],
    [['relay', '--redis-wait-replicas', '1'], /--redis-wait-replicas are for a cluster node \(--redis\)/],
  ])('usage error %j: exit 2', async (argv, message) => {
    const c = captureCli()
    expect(await runCli(argv, c.io)).toBe(2)
    expect(c.out.stderr).toMatch(message)
    expect(c.out.stderr).not.toContain('s3cret')
  })

  test.each([
    ['redis-sentinel://:s3cret@127.0.0.1:1/mymaster', 'redis-sentinel://:***@127.0.0.1:1/mymaster'],
    ['redis-cluster://:s3cret@127.0.0.1:1,127.0.0.1:2', 'redis-cluster://:***@127.0.0.1:1,127.0.0.1:2'],
  ])('sentinels or cluster seeds that cannot be reached: exit 1 saying so, redacted (%s)', async (url, shown) => {
    const c = captureCli()
    expect(await runCli(['relay', '--port', '0', '--redis', url, '--node-id', 'n1'], c.io)).toBe(1)
    expect(c.out.stderr).toBe(`memweave: cannot start the relay: relay: cannot reach Redis at ${shown}\n`)
  }, 20_000)

  test('a Redis that cannot be reached: exit 1 saying so, without ioredis retry noise', async () => {
    const c = captureCli()
    expect(await runCli(['relay', '--port', '0', '--redis', 'redis://127.0.0.1:1', '--node-id', 'n1'], c.io)).toBe(1)
    expect(c.out.stderr).toBe('memweave: cannot start the relay: relay: cannot reach Redis at redis://127.0.0.1:1\n')
  })

  test('--connections-per-minute sets the per-IP upgrade limit (the third upgrade in the minute is refused with 429)', async () => {
    const c = captureCli()
    const running = runCli(['relay', '--port', '0', '--connections-per-minute', '2'], c.io)
    while (!/listening on/.test(c.out.stdout)) await new Promise((r) => setTimeout(r, 10))
    const url = /listening on (ws:\/\/\S+)/.exec(c.out.stdout)![1]!
    // 101 when upgraded (the relay then closes it: no token), else the HTTP status that refused it.
    const upgrade = (): Promise<number> => new Promise((ok) => {
      const ws = new WebSocket(`${url}/room`)
      ws.on('error', () => undefined)
      ws.once('open', () => {
        ws.terminate()
        ok(101)
      })
      ws.once('unexpected-response', (_req, res) => ok(res.statusCode ?? 0))
    })
    const statuses = [await upgrade(), await upgrade(), await upgrade()]
    c.controller.abort()
    expect(await running).toBe(0)
    expect(statuses).toEqual([101, 101, 429])
  })
})
