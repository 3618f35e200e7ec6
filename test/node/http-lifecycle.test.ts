import { Agent, request, type IncomingMessage } from 'node:http'
import { createServer as createNetServer, connect, type AddressInfo, type Server as NetServer, type Socket } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { HttpLifecycle, serverUrl, type HttpCloseSteps, type HttpHandlers, type HttpLifecycleOptions } from '../../src/node/http-lifecycle.js'
import { describeListenError } from '../../src/cli/listen-error.js'
import { createGmpServer } from '../../src/gmp-http/server.js'
import { createRelay } from '../../src/relay/relay.js'
import { createStaticServer } from '../../src/cli/static-server.js'

// Issue 30: the GMP server, the relay and the static demo server start and stop through one
// lifecycle (src/node/http-lifecycle.ts). These pin what the three relied on when each had its
// own copy: close() ends with keep-alive connections open, waits for running requests (cutting
// them after the grace), runs once; listen() on a port in use gives Node's coded error.

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** A grace no test waits for: a close that finishes did so without the timer. */
const NEVER = 600_000

function lifecycle(options: Partial<HttpLifecycleOptions> = {}): HttpLifecycle {
  const lc = new HttpLifecycle({ name: 'the test server', port: 0, scheme: 'http', path: '/', graceMs: NEVER, ...options })
  // Only the steps of the test's own close() count; this one reaches a lifecycle a test left open.
  cleanups.push(() => lc.close().catch(() => undefined))
  return lc
}

function serve(lc: HttpLifecycle, handlers: HttpHandlers) {
  return lc.listen((bind) => bind(handlers))
}

/** A deferred: a promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((ok) => (open = ok))
  return { promise, open }
}

interface Answer {
  readonly status: number
  readonly body: string
  readonly socket: Socket
}

function get(port: number, options: { agent?: Agent; host?: string } = {}): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent: options.agent, headers: { host: options.host ?? `127.0.0.1:${port}` } }, (res: IncomingMessage) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => ok({ status: res.statusCode ?? 0, body, socket: req.socket as Socket }))
      res.on('error', fail)
    })
    req.on('error', fail)
    req.end()
  })
}

const hello: HttpHandlers = {
  request: (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('hello')
  },
}

function socketClosed(socket: Socket): Promise<void> {
  return socket.destroyed ? Promise.resolve() : new Promise((ok) => socket.once('close', () => ok()))
}

describe('HttpLifecycle', () => {
  test('listen() reports the port it got in the URL; bad ports are refused at construction', async () => {
    const lc = lifecycle({ scheme: 'ws', path: '' })
    expect(lc.address).toBeNull()
    const address = await serve(lc, hello)
    expect(address.port).toBeGreaterThan(0)
    expect(address).toEqual({ url: `ws://127.0.0.1:${address.port}`, host: '127.0.0.1', port: address.port })
    expect(lc.address).toEqual(address)
    expect(serverUrl('http', '::1', 7411, '/v1')).toBe('http://[::1]:7411/v1')
    for (const port of [-1, 65536, 1.5, Number.NaN]) {
      expect(() => new HttpLifecycle({ name: 'x', port, scheme: 'http', graceMs: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'port: must be an integer in 0..65535' }))
    }
  })

  test('every request gets the guard of the bound address (port 0 resolved), not of the port asked for', async () => {
    const lc = lifecycle()
    const { port } = await serve(lc, {
      request: (req, res, guard) => {
        const refusal = guard.refuse(req)
        res.writeHead(refusal ? refusal.status : 200)
        res.end(refusal ? refusal.error : 'ok')
      },
    })
    expect(await get(port, { host: `localhost:${port}` })).toMatchObject({ status: 200, body: 'ok' })
    expect(await get(port, { host: `rebound.example:${port}` })).toMatchObject({ status: 403, body: 'forbidden_host' })
  })

  test('close() finishes while a client keeps an idle keep-alive connection open, and closes it', async () => {
    const lc = lifecycle()
    const { port } = await serve(lc, hello)
    const agent = new Agent({ keepAlive: true })
    cleanups.push(async () => agent.destroy())
    const answer = await get(port, { agent })
    expect(answer.body).toBe('hello')
    expect(answer.socket.destroyed).toBe(false) // kept alive by the agent
    await lc.close() // with a grace of ten minutes: only closing the idle connection lets it end
    await socketClosed(answer.socket)
    expect(lc.address).toBeNull()
  })

  test('close() waits for a running request to answer in full, then runs its steps', async () => {
    const lc = lifecycle()
    const entered = gate()
    const release = gate()
    const events: string[] = []
    const { port } = await serve(lc, {
      request: async (_req, res) => {
        entered.open()
        await release.promise
        res.end('finished')
        events.push('handler done')
      },
    })
    const agent = new Agent({ keepAlive: true })
    cleanups.push(async () => agent.destroy())
    const answer = get(port, { agent })
    await entered.promise
    const closing = lc.close({ after: async () => void events.push('after') }).then(() => events.push('closed'))
    // The handler is parked on `release`: nothing can have closed yet.
    await new Promise((ok) => setImmediate(ok))
    expect(events).toEqual([])
    release.open()
    expect((await answer).body).toBe('finished')
    await closing
    expect(events).toEqual(['handler done', 'after', 'closed'])
  })

  test('after the grace, a request still running has its connection cut, and close() still waits for its handler', async () => {
    const lc = lifecycle({ graceMs: 20 })
    const entered = gate()
    const release = gate()
    const events: string[] = []
    const { port } = await serve(lc, {
      request: async (_req, res) => {
        entered.open()
        await release.promise
        events.push('handler done')
        res.end('too late')
      },
    })
    const answer = get(port)
    await entered.promise
    const closing = lc.close({ after: async () => void events.push('after') })
    await expect(answer).rejects.toMatchObject({ code: 'ECONNRESET' })
    expect(events).toEqual([]) // cut, but what the handler uses is not closed under it
    release.open()
    await closing
    expect(events).toEqual(['handler done', 'after'])
  })

  test('a grace of 0 cuts every connection at once, without waiting for a handler that is not tracked', async () => {
    const lc = lifecycle({ graceMs: 0 })
    const entered = gate()
    const { port } = await serve(lc, {
      request: () => entered.open(), // answers nothing and returns nothing (the static server's shape)
    })
    const answer = get(port)
    await entered.promise
    await lc.close()
    await expect(answer).rejects.toMatchObject({ code: 'ECONNRESET' })
  })

  test("the owner's drain runs before the grace: connections are still served while it runs (the relay's order)", async () => {
    const lc = lifecycle({ graceMs: 0 })
    const entered = gate()
    const release = gate()
    const drained = gate()
    const { port } = await serve(lc, {
      request: async (_req, res) => {
        entered.open()
        await release.promise
        res.end('answered during the drain')
      },
    })
    const answer = get(port)
    await entered.promise
    const closing = lc.close({
      drain: async () => {
        release.open()
        await drained.promise
      },
    })
    expect((await answer).body).toBe('answered during the drain') // a grace of 0 has not cut it
    drained.open()
    await closing
  })

  test('close() twice is one close: its steps run once; listen() after it is refused with CLOSED', async () => {
    const lc = lifecycle()
    const { port } = await serve(lc, hello)
    let drains = 0
    let afters = 0
    const steps: HttpCloseSteps = { drain: async () => void drains++, after: async () => void afters++ }
    const first = lc.close(steps)
    const second = lc.close(steps)
    expect(second).toBe(first)
    await Promise.all([first, second, lc.close()])
    expect([drains, afters]).toEqual([1, 1])
    expect(lc.closing).toBe(true)
    await expect(lc.listen((bind) => bind(hello))).rejects.toMatchObject({ code: 'CLOSED', message: 'the test server is closed' })
    await expect(get(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
  })

  test('close() during listen() lets the bind finish, then stops the server; close() before listen() runs its steps', async () => {
    const lc = lifecycle()
    const listening = serve(lc, hello)
    const closing = lc.close()
    const { port } = await listening
    await closing
    await expect(get(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' })

    const never = lifecycle()
    const ran: string[] = []
    await never.close({ drain: async () => void ran.push('drain'), after: async () => void ran.push('after') })
    expect(ran).toEqual(['drain', 'after'])
  })

  test('a failing step is close()\'s error, the server is down all the same, and the address is cleared', async () => {
    const lc = lifecycle()
    const { port } = await serve(lc, hello)
    const failure = new Error('compaction failed')
    await expect(lc.close({ after: async () => { throw failure } })).rejects.toBe(failure)
    expect(lc.address).toBeNull()
    await expect(get(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
  })
})

describe('a port in use', () => {
  async function occupied(): Promise<number> {
    const holder: NetServer = createNetServer()
    await new Promise<void>((ok) => holder.listen(0, '127.0.0.1', () => ok()))
    cleanups.push(() => new Promise<void>((ok) => holder.close(() => ok())))
    return (holder.address() as AddressInfo).port
  }

  test("listen() gives Node's coded error (EADDRINUSE, the address, the port), once, and the CLI's line from it", async () => {
    const port = await occupied()
    const lc = lifecycle({ port })
    let starts = 0
    const first = lc.listen((bind) => (starts++, bind(hello)))
    const err = await first.catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'EADDRINUSE', address: '127.0.0.1', port })
    expect(lc.listen((bind) => (starts++, bind(hello)))).toBe(first) // not retried: the same answer
    expect(starts).toBe(1)
    expect(lc.address).toBeNull()
    expect(describeListenError(err, { [port]: '--port' })).toBe(
      `EADDRINUSE: 127.0.0.1:${port} is already in use by another program (another memweave?); stop it, or choose another port with --port (0 picks a free one)`,
    )
    const ran: string[] = []
    await lc.close({ after: async () => void ran.push('after') }) // what start opened is still closed
    expect(ran).toEqual(['after'])
  })

  test('the GMP server, the relay and the static server each give it, release their directory, and are then closed', async () => {
    const port = await occupied()
    const dir = mkdtempSync(join(tmpdir(), 'memweave-lifecycle-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    const servers = [
      { name: 'the GMP server', server: createGmpServer({ port, dir: join(dir, 'gmp') }), again: () => createGmpServer({ port: 0, dir: join(dir, 'gmp') }) },
      { name: 'the relay', server: createRelay({ port, dir: join(dir, 'relay') }), again: () => createRelay({ port: 0, dir: join(dir, 'relay') }) },
      { name: 'the static server', server: createStaticServer({ root: dir, port }), again: () => createStaticServer({ root: dir, port: 0 }) },
    ]
    for (const { name, server, again } of servers) {
      await expect(server.listen()).rejects.toMatchObject({ code: 'EADDRINUSE', address: '127.0.0.1', port })
      await server.close()
      await expect(server.listen()).rejects.toMatchObject({ code: 'CLOSED', message: `${name} is closed` })
      // The directory lock went with the failed bind: a second server may serve the same directory.
      const next = again()
      const { url } = await next.listen()
      expect(url).toMatch(/^(http|ws):\/\/127\.0\.0\.1:\d+/)
      await next.close()
    }
  })
})

describe('the servers on the lifecycle', () => {
  test('close() of the GMP server and of the static server ends with a keep-alive connection open', async () => {
    const root = mkdtempSync(join(tmpdir(), 'memweave-lifecycle-'))
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }))
    const agent = new Agent({ keepAlive: true })
    cleanups.push(async () => agent.destroy())
    for (const server of [createGmpServer({ port: 0 }), createStaticServer({ root, port: 0 })]) {
      const { port } = await server.listen()
      const answer = await get(port, { agent })
      expect(answer.socket.destroyed).toBe(false)
      await server.close()
      await socketClosed(answer.socket)
    }
  })

  test("a relay's close() ends with a raw TCP client connected and its address is then null", async () => {
    const relay = createRelay({ port: 0 })
    const { port } = await relay.listen()
    const socket = connect(port, '127.0.0.1')
    await new Promise<void>((ok) => socket.once('connect', () => ok()))
    socket.on('error', () => undefined)
    await relay.close()
    await socketClosed(socket)
    expect(relay.address).toBeNull()
  })
})
