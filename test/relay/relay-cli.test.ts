import { type ChildProcess } from 'node:child_process'
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Y from 'yjs'
import { runCli } from '../../src/cli/main.js'
import { UpdateLog } from '../../src/relay/update-log.js'
import { GmpHttpClient } from '../../src/gmp-http/client.js'
import { connect, eventually, identity, poolOf, tempDir, token } from './relay-helpers.js'
import { ensureBuilt, startCliServer, type CliServer, captureCli } from '../helpers/processes.js'
const BUILT = ['dist/src/cli/main.js', 'dist/src/relay/relay.js']
const RELAY_LINE = /^memweave relay listening on (ws:\/\/127\.0\.0\.1:\d+)$/
const GMP_LINE = /^memweave GMP server listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/


describe('memweave relay / start (in process)', () => {
  test.each([
    [['relay', '--bogus'], /--bogus: unknown option[\s\S]*Usage: memweave relay/],
    [['relay', '--port', '70000'], /--port: must be a port number/],
    [['relay', 'extra'], /unexpected argument "extra"/],
    [['start', '--relay-port', 'x'], /--relay-port: must be a port number[\s\S]*Usage: memweave start/],
  ])('usage error %j: exit 2', async (argv, message) => {
    const c = captureCli()
    expect(await runCli(argv, c.io)).toBe(2)
    expect(c.out.stderr).toMatch(message)
  })

  test('relay --help, and the command list names relay and start', async () => {
    const help = captureCli()
    expect(await runCli(['relay', '--help'], help.io)).toBe(0)
    expect(help.out.stdout).toMatch(/^Usage: memweave relay \[--host 127\.0\.0\.1\] \[--port 7412\] \[--dir D\]/)
    const list = captureCli()
    expect(await runCli(['--help'], list.io)).toBe(0)
    expect(list.out.stdout).toMatch(/\n {2}relay +Relay pools/)
    expect(list.out.stdout).toMatch(/\n {2}start +Run the GMP server and the relay/)
  })

  test('relay --port 0 prints one line, relays, and exits 0 on shutdown', async () => {
    const c = captureCli()
    const running = runCli(['relay', '--port', '0'], c.io)
    await expect.poll(() => c.out.stdout, { timeout: 5000 }).toMatch(/\n$/)
    const url = RELAY_LINE.exec(c.out.stdout.trim())![1]!
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const a = connect(url, pool, await token(owner, pool, owner, true))
    const b = connect(url, pool, await token(owner, pool, owner, false))
    await Promise.all([a.synced(), b.synced()])
    a.doc.getMap('m').set('k', 'via the CLI')
    await eventually(() => b.doc.getMap('m').get('k'), 'via the CLI')
    c.controller.abort()
    expect(await running).toBe(0)
    expect(c.out.stdout.trim().split('\n')).toHaveLength(1)
    expect(c.out.stderr).toBe('')
  })

  test('start runs the GMP server and the relay, one line each, and stops both', async () => {
    const c = captureCli()
    const running = runCli(['start', '--gmp-port', '0', '--relay-port', '0'], c.io)
    await expect.poll(() => c.out.stdout.split('\n').length, { timeout: 5000 }).toBe(3)
    const [gmpLine, relayLine] = c.out.stdout.trim().split('\n') as [string, string]
    const gmpUrl = GMP_LINE.exec(gmpLine)![1]!
    const relayUrl = RELAY_LINE.exec(relayLine)![1]!
    const store = await GmpHttpClient.createStore(gmpUrl)
    await store.write('served next to the relay')
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    await connect(relayUrl, pool, await token(owner, pool, owner, true)).synced()
    c.controller.abort()
    expect(await running).toBe(0)
    expect(c.out.stderr).toBe('')
  })
})

/** Starts `node bin/memweave.js relay --port 0 --dir <dir>` and waits for its one line. */
function relayProcess(dir: string): Promise<CliServer> {
  return startCliServer(['relay', '--port', '0', '--dir', dir], RELAY_LINE, { name: 'memweave relay' })
}

describe('memweave relay (built, as a process)', () => {
  const children: ChildProcess[] = []
  beforeAll(() => ensureBuilt(BUILT), 120_000)
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
  })

  test('pools survive SIGTERM and a restart on the same dir; SIGTERM exits 0 and frees the dir', async () => {
    const dir = await tempDir()
    const owner = await identity('owner')
    const writer = await identity('writer')
    const { pool } = poolOf(owner)
    const first = await relayProcess(dir)
    children.push(first.child)
    const a = connect(first.url, pool, await token(owner, pool, writer, true))
    await a.synced()
    for (let i = 0; i < 20; i++) a.doc.getMap('records').set(`r${i}`, { n: i })
    const check = connect(first.url, pool, await token(owner, pool, owner, false))
    await eventually(() => check.doc.getMap('records').size, 20)
    a.provider.destroy()
    check.provider.destroy()
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(first.stderr()).toBe('')
    expect(await readdir(dir)).not.toContain('LOCK')

    const second = await relayProcess(dir)
    children.push(second.child)
    const b = connect(second.url, pool, await token(owner, pool, owner, false))
    await b.synced()
    expect(b.doc.getMap('records').size).toBe(20)
    expect(b.doc.getMap('records').get('r7')).toEqual({ n: 7 })
    b.provider.destroy()
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 60_000)

  // Issue 13: one flipped byte in frame 200 of 400 made the relay load 1-199 and rewrite the log without 200-400.
  test('a damaged frame in the middle of updates.log: the relay serves every intact frame, says so, keeps a copy', async () => {
    const dir = await tempDir()
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const roomDir = join(dir, 'rooms', pool)
    await mkdir(roomDir, { recursive: true })
    const path = join(roomDir, 'updates.log')
    // 400 independent updates (one fresh client each), so no frame depends on the damaged one.
    const { log } = await UpdateLog.open(path)
    const sizes: number[] = []
    const docs: Y.Doc[] = []
    for (let i = 0; i < 400; i++) {
      const doc = new Y.Doc()
      docs.push(doc)
      doc.getMap('m').set(`k${i}`, `value ${i}`)
      const update = Y.encodeStateAsUpdate(doc)
      sizes.push(update.length)
      void log.append(update)
    }
    await log.close()
    const bytes = await readFile(path)
    const frame200 = 8 + sizes.slice(0, 199).reduce((sum, n) => sum + 16 + n, 0)
    bytes[frame200 + 16 + sizes[199]! - 2]! ^= 0x01
    await writeFile(path, bytes)

    const first = await relayProcess(dir)
    children.push(first.child)
    const a = connect(first.url, pool, await token(owner, pool, owner, false))
    await a.synced()
    expect(a.doc.getMap('m').size).toBe(399)
    expect(a.doc.getMap('m').has('k199')).toBe(false)
    expect(a.doc.getMap('m').get('k399')).toBe('value 399')
    expect(first.stderr()).toMatch(/updates\.log: skipped 1 damaged region\(s\) .*kept 399 intact frames; the damaged file is kept as /)
    const copies = (await readdir(roomDir)).filter((f) => f.startsWith('updates.log.damaged-'))
    expect(copies).toHaveLength(1)
    expect(Buffer.compare(await readFile(join(roomDir, copies[0]!)), bytes)).toBe(0)
    // The device that wrote the skipped update still holds it and sends it again when it syncs.
    const healer = connect(first.url, pool, await token(owner, pool, owner, true), docs[199])
    await healer.synced()
    await eventually(() => a.doc.getMap('m').get('k199'), 'value 199')
    healer.provider.destroy()
    a.provider.destroy()
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)

    // Compacted on close: all 400 after a restart, and no new warning.
    const second = await relayProcess(dir)
    children.push(second.child)
    const b = connect(second.url, pool, await token(owner, pool, owner, false))
    await b.synced()
    expect(b.doc.getMap('m').size).toBe(400)
    b.provider.destroy()
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    expect(second.stderr()).toBe('')
  }, 60_000)

  test('SIGKILL mid-stream: what was fsync’d is there after a restart', async () => {
    const dir = await tempDir()
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const first = await relayProcess(dir)
    children.push(first.child)
    const a = connect(first.url, pool, await token(owner, pool, owner, true))
    await a.synced()
    for (let i = 0; i < 200; i++) a.doc.getMap('m').set(`k${i}`, i)
    const check = connect(first.url, pool, await token(owner, pool, owner, false))
    await eventually(() => check.doc.getMap('m').size, 200)
    // Give the group commit a moment to land, then no graceful close at all.
    await new Promise((ok) => setTimeout(ok, 200))
    first.child.kill('SIGKILL')
    await first.exited
    a.provider.destroy()
    check.provider.destroy()

    const second = await relayProcess(dir)
    children.push(second.child)
    const b = connect(second.url, pool, await token(owner, pool, owner, false))
    await b.synced()
    expect(b.doc.getMap('m').size).toBe(200)
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 60_000)
})
