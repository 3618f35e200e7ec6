import { type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../../src/cli/main.js'
import { GmpHttpClient } from '../../src/gmp-http/client.js'
import { REPO_ROOT, ensureBuilt, runCliProcess, startCliServer, type CliServer, captureCli } from '../helpers/processes.js'
const BUILT = ['dist/src/cli/main.js']
const SEED = Uint8Array.from({ length: 32 }, (_, i) => 255 - i)
const LISTENING = /^memweave GMP server listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/


describe('memweave CLI (in process)', () => {
  test('--help prints usage on stdout, exit 0; --version prints the package version', async () => {
    const help = captureCli()
    expect(await runCli(['--help'], help.io)).toBe(0)
    expect(help.out.stdout).toMatch(/^Usage: memweave <command>/)
    expect(help.out.stdout).toContain('gmp')
    const version = captureCli()
    expect(await runCli(['--version'], version.io)).toBe(0)
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
    expect(version.out.stdout).toBe(`${pkg.version}\n`)
  })

  test.each([
    [[], /^Usage: memweave <command>/],
    [['frobnicate'], /unknown command "frobnicate"[\s\S]*Usage: memweave <command>/],
    [['gmp'], /needs a command[\s\S]*Usage: memweave gmp <command>/],
    [['gmp', 'explode'], /unknown command "gmp explode"/],
    [['gmp', 'serve', '--bogus'], /--bogus: unknown option[\s\S]*Usage: memweave gmp serve/],
    [['gmp', 'serve', '--port'], /--port: needs a value/],
    [['gmp', 'serve', '--port', '99999'], /--port: must be a port number/],
    [['gmp', 'serve', '--token='], /--token must not be empty/],
    [['gmp', 'serve', 'extra'], /unexpected argument "extra"/],
  ])('usage error %j: usage on stderr, exit 2', async (argv, message) => {
    const c = captureCli()
    expect(await runCli(argv, c.io)).toBe(2)
    expect(c.out.stderr).toMatch(message)
    expect(c.out.stdout).toBe('')
  })

  test('gmp serve --port 0 prints one line, serves with the token, and exits 0 on shutdown', async () => {
    const c = captureCli()
    const running = runCli(['gmp', 'serve', '--port=0', '--token', 's3cret'], c.io)
    await expect.poll(() => c.out.stdout, { timeout: 5000 }).toMatch(/\n$/)
    const url = LISTENING.exec(c.out.stdout.trim())![1]!
    await expect(GmpHttpClient.createStore(url)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
    const store = await GmpHttpClient.createStore(url, { token: 's3cret' })
    await store.write('hello over the CLI')
    c.controller.abort()
    expect(await running).toBe(0)
    expect(c.out.stdout.trim().split('\n')).toHaveLength(1)
    expect(c.out.stderr).toBe('')
  })

  test('gmp serve on a port in use fails with exit 1 and a message', async () => {
    const first = captureCli()
    const running = runCli(['gmp', 'serve', '--port', '0'], first.io)
    await expect.poll(() => first.out.stdout, { timeout: 5000 }).toMatch(/\n$/)
    const port = new URL(LISTENING.exec(first.out.stdout.trim())![1]!).port
    const second = captureCli()
    expect(await runCli(['gmp', 'serve', '--port', port], second.io)).toBe(1)
    expect(second.out.stderr).toMatch(/cannot start the GMP server: EADDRINUSE/)
    first.controller.abort()
    expect(await running).toBe(0)
  })
})

/** Starts `node bin/memweave.js gmp serve --port 0 --dir <dir>` and waits for its one line. */
function serve(dir: string): Promise<CliServer> {
  return startCliServer(['gmp', 'serve', '--port', '0', '--dir', dir], LISTENING)
}

describe('memweave gmp serve (built, as a process)', () => {
  let dir: string
  const children: ChildProcess[] = []

  beforeAll(async () => {
    await ensureBuilt(BUILT)
    dir = await mkdtemp(join(tmpdir(), 'memweave-cli-'))
  }, 120_000)

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    await rm(dir, { recursive: true, force: true })
  })

  test('a signed fact, its signature and the server key survive SIGTERM and a restart on the same dir', async () => {
    const first = await serve(dir)
    children.push(first.child)
    const store = await GmpHttpClient.createStore(first.url)
    const clientSigned = await store.write('Aria lives in Rome', { signingKey: SEED, metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
    const serverSigned = await store.write('signed by the server itself')
    const before = await store.audit()
    const serverKey = before.find((m) => m.ref === serverSigned)!.source!.publicKey!
    expect(serverKey).toHaveLength(32)

    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(first.stderr()).toBe('')
    // Graceful close released every lock.
    expect(await readdir(dir)).not.toContain('LOCK')

    const second = await serve(dir)
    children.push(second.child)
    expect(second.url).not.toBe('')
    const again = new GmpHttpClient(second.url, store.storeId)
    const after = await again.audit()
    expect(after).toEqual(before)
    const fact = after.find((m) => m.ref === clientSigned)!
    expect(fact.content).toBe('Aria lives in Rome')
    expect(await again.verifyProvenance(fact, fact.factId)).toBe(true)
    expect(fact.source!.signature).toEqual(before.find((m) => m.ref === clientSigned)!.source!.signature)
    // New unsigned writes are signed by the same server key as before the restart.
    const fresh = await again.write('written after the restart')
    const freshMemory = (await again.audit()).find((m) => m.ref === fresh)!
    expect(freshMemory.source!.publicKey).toEqual(serverKey)
    expect(await again.verifyProvenance(freshMemory, freshMemory.factId)).toBe(true)

    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 60_000)

  test('--help and an unknown command through bin/memweave.js', async () => {
    const run = (args: string[]) => runCliProcess(args)
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: memweave/)
    const bad = await run(['nope'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/unknown command "nope"/)
  })
})
