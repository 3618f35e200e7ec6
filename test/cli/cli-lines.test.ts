import { hostname } from 'node:os'
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../../src/cli/main.js'
import { RedisServer } from '../helpers/redis-server.js'
import { captureCli } from '../helpers/processes.js'

// Issue 29, item 7: what the command line says. `--help` names mcp's pool tools; a cluster relay
// says which node it is and which Redis it shares (password hidden); a port in use is one line
// that says what to do.


/** Ports of this test file (the workspace's own range, 41200-41299). */
const BUSY_PORT = 41217

test('--help describes mcp with its artifact, fact and pool tools; mcp --help lists every pool tool and --agent', async () => {
  const list = captureCli()
  expect(await runCli(['--help'], list.io)).toBe(0)
  const line = list.out.stdout.split('\n').find((l) => /^ {2}mcp /.test(l))!
  expect(line).toMatch(/awp_artifact_\*/)
  expect(line).toMatch(/gmp_\*/)
  expect(line).toMatch(/pool_\*/)
  const help = captureCli()
  expect(await runCli(['mcp', '--help'], help.io)).toBe(0)
  for (const tool of ['pool_create', 'pool_list', 'pool_share', 'pool_write', 'pool_query', 'pool_forget', 'pool_conflicts', 'pool_resolve']) expect(help.out.stdout).toContain(tool)
  expect(help.out.stdout).toMatch(/--agent NAME/)
})

describe('a port in use is one line naming the address and the flag to change', () => {
  let busy: Server
  beforeAll(async () => {
    busy = createServer()
    await new Promise<void>((ok, fail) => {
      busy.once('error', fail)
      busy.listen(BUSY_PORT, '127.0.0.1', () => ok())
    })
  })
  afterAll(() => new Promise<void>((ok) => busy.close(() => ok())))

  test.each([
    [['relay', '--port', String(BUSY_PORT)], 'memweave: cannot start the relay: ', '--port'],
    [['gmp', 'serve', '--port', String(BUSY_PORT)], 'memweave: cannot start the GMP server: ', '--port'],
    [['start', '--gmp-port', '0', '--relay-port', String(BUSY_PORT)], 'memweave: cannot start: ', '--relay-port'],
  ])('%j', async (argv, prefix, flag) => {
    const c = captureCli()
    expect(await runCli(argv, c.io)).toBe(1)
    expect(c.out.stderr).toBe(
      `${prefix}EADDRINUSE: 127.0.0.1:${BUSY_PORT} is already in use by another program (another memweave?); stop it, or choose another port with ${flag} (0 picks a free one)\n`,
    )
  })
})

describe('memweave relay --redis says which node it is and which Redis it uses, without the password', () => {
  let redis: RedisServer
  beforeAll(async () => {
    redis = await RedisServer.start({ password: 's3cret-pw' })
  }, 30_000)
  afterAll(() => redis.stop())

  test.each([
    [['--node-id', 'n7'], 'n7'],
    [[], `${hostname()}-${process.pid}`],
  ])('%j', async (extra, node) => {
    const c = captureCli()
    const running = runCli(['relay', '--port', '0', '--redis', redis.url, ...extra], c.io)
    await expect.poll(() => c.out.stdout + c.out.stderr, { timeout: 15_000 }).toMatch(/\n$/)
    expect(c.out.stderr).toBe('')
    expect(c.out.stdout).toMatch(new RegExp(`^memweave relay listening on ws://127\\.0\\.0\\.1:\\d+ \\(cluster node ${node.replace(/\./g, '\\.')}, Redis redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port}\\)\\n$`))
    expect(c.out.stdout).not.toContain('s3cret')
    c.controller.abort()
    expect(await running).toBe(0)
  }, 30_000)
})

