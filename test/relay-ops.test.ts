import { expect, test } from 'vitest'
import { connect, identity, poolOf, startRelay, token } from './relay-helpers.js'

/** /healthz and /metrics on the single-process relay (the cluster's are in relay-cluster.test.ts). */

test('the single-process relay answers /healthz and /metrics, and still 426 elsewhere', async () => {
  const { relay, url } = await startRelay()
  const http = url.replace('ws:', 'http:')
  const health = await fetch(`${http}/healthz`)
  expect([health.status, await health.text()]).toEqual([200, 'ok\n'])
  const owner = await identity('owner')
  const { pool } = poolOf(owner)
  const c = connect(url, pool, await token(owner, pool, owner, true))
  await c.synced()
  const metrics = await (await fetch(`${http}/metrics`)).text()
  expect(metrics).toMatch(/^memweave_relay_up 1\nmemweave_relay_connections 1\nmemweave_relay_pools_loaded 1\n/)
  expect(metrics).toMatch(/memweave_relay_process_heap_used_bytes \d+\n$/)
  expect((await fetch(`${http}/`)).status).toBe(426)
  await relay.close()
})
