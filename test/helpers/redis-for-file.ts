import { Redis } from 'ioredis'
import { afterAll, beforeAll } from 'vitest'
import { RedisServer } from './redis-server.js'

/**
 * One redis-server and a client of it for a whole test file: started before its tests, stopped
 * after them. `redis` is set once the file's tests run. Apart from redis-server.ts, which the
 * benches and Playwright import and so cannot import vitest.
 */
export function redisForFile(): { readonly redis: Redis } {
  const held = {} as { redis: Redis }
  let server: RedisServer | undefined
  beforeAll(async () => {
    server = await RedisServer.start()
    held.redis = new Redis(server.url)
  })
  afterAll(async () => {
    held.redis?.disconnect()
    await server?.stop()
  })
  return held
}
