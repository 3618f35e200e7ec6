import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../../src/cli/main.js'
import { createStaticServer, urlPath, type StaticServer } from '../../src/cli/static-server.js'

/** One raw HTTP request: the path goes out exactly as written (fetch would normalize `..` away). */
function get(url: string, path: string, method = 'GET'): Promise<{ status: number; type: string | undefined; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(url)
  return new Promise((ok, fail) => {
    const req = request({ host: hostname, port, path, method }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => {
        ok({ status: res.statusCode!, type: res.headers['content-type'], body, headers: res.headers })
      })
    })
    req.on('error', fail).end()
  })
}

const SECRET = 'outside the root: must never be served'

describe('the static server of `memweave start --demo`', () => {
  let base: string
  let server: StaticServer
  let url: string

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'memweave-static-'))
    const root = join(base, 'dist')
    await mkdir(join(root, 'assets'), { recursive: true })
    await mkdir(join(root, 'nested'))
    await writeFile(join(root, 'index.html'), '<!doctype html><title>demo</title>')
    await writeFile(join(root, 'assets', 'main-abc123.js'), 'export const x = 1')
    await writeFile(join(root, 'assets', 'memory-worker-def456.js'), 'self.onconnect = () => {}')
    await writeFile(join(root, 'assets', 'style.css'), 'body{}')
    await writeFile(join(root, 'nested', 'index.html'), 'nested index')
    await writeFile(join(root, 'blob.bin'), 'bytes')
    await writeFile(join(base, 'secret.txt'), SECRET)
    await symlink(join(base, 'secret.txt'), join(root, 'link-out.txt'))
    server = createStaticServer({ root, port: 0, files: { '/memweave.json': { type: 'application/json; charset=utf-8', body: '{"relay":"ws://x"}' } } })
    url = (await server.listen()).url
  })

  afterAll(async () => {
    await server.close()
    await server.close() // idempotent
    await rm(base, { recursive: true, force: true })
  })

  test('serves files with their content types; .js (module scripts and module workers) as text/javascript', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    const index = await get(url, '/')
    expect(index).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', body: '<!doctype html><title>demo</title>' })
    expect(index.headers['cache-control']).toBe('no-cache')
    expect(index.headers['x-content-type-options']).toBe('nosniff')
    const js = await get(url, '/assets/main-abc123.js?v=1')
    expect(js).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8', body: 'export const x = 1' })
    expect(js.headers['cache-control']).toContain('immutable')
    expect((await get(url, '/assets/memory-worker-def456.js')).type).toBe('text/javascript; charset=utf-8')
    expect((await get(url, '/assets/style.css')).type).toBe('text/css; charset=utf-8')
    expect((await get(url, '/blob.bin')).type).toBe('application/octet-stream')
    expect(await get(url, '/nested/')).toMatchObject({ status: 200, body: 'nested index' })
    expect(await get(url, '/memweave.json')).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', body: '{"relay":"ws://x"}' })
  })

  test('HEAD has the headers and no body; other methods are 405', async () => {
    const head = await get(url, '/assets/main-abc123.js', 'HEAD')
    expect(head).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8', body: '' })
    expect(head.headers['content-length']).toBe('18')
    const post = await get(url, '/', 'POST')
    expect(post.status).toBe(405)
    expect(post.headers['allow']).toBe('GET, HEAD')
  })

  test('a missing file is 404', async () => {
    expect((await get(url, '/nope.js')).status).toBe(404)
    expect((await get(url, '/assets/')).status).toBe(404) // a directory without index.html
  })

  test.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%5csecret.txt',
    '/%00/../secret.txt',
    '//etc/passwd',
    '/link-out.txt',
    '/%zz',
  ])('no way out of the root: %s', async (path) => {
    const res = await get(url, path)
    expect([400, 404]).toContain(res.status)
    expect(res.body).not.toContain(SECRET)
    expect(res.body).not.toContain('root:')
  })

  test('urlPath decodes once and refuses what is not a clean absolute path', () => {
    expect(urlPath('/a%20b.js?x#y')).toBe('/a b.js')
    expect(urlPath('relative')).toBeNull()
    expect(urlPath('/%E0%A4%A')).toBeNull()
    expect(urlPath('/a%00b')).toBeNull()
    expect(urlPath('/a%5cb')).toBeNull()
  })

  test('a root that is not a directory is refused at listen', async () => {
    await expect(createStaticServer({ root: join(base, 'missing'), port: 0 }).listen()).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(() => createStaticServer({ root: base, port: 70000 })).toThrow(/port/)
  })
})

describe('memweave start --demo', () => {
  test('serves the demo beside the GMP server and the relay, with the relay address in /memweave.json', async () => {
    const base = await mkdtemp(join(tmpdir(), 'memweave-start-demo-'))
    await writeFile(join(base, 'index.html'), 'the demo')
    const out = { stdout: '', stderr: '' }
    const controller = new AbortController()
    const io = { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env: {}, shutdown: () => controller.signal }
    const running = runCli(['start', '--gmp-port', '0', '--relay-port', '0', '--demo', base, '--demo-port', '0'], io)
    try {
      await expect.poll(() => out.stdout.split('\n').length, { timeout: 5000 }).toBe(4)
      const [gmpLine, relayLine, demoLine] = out.stdout.trim().split('\n') as [string, string, string]
      const demoUrl = /^memweave demo on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(demoLine)![1]!
      expect(await get(demoUrl, '/')).toMatchObject({ status: 200, body: 'the demo' })
      const config = JSON.parse((await get(demoUrl, '/memweave.json')).body) as { relay: string; gmp: string }
      expect(relayLine).toBe(`memweave relay listening on ${config.relay}`)
      expect(gmpLine).toBe(`memweave GMP server listening on ${config.gmp}`)
    } finally {
      controller.abort()
      expect(await running).toBe(0)
      await rm(base, { recursive: true, force: true })
    }
    expect(out.stderr).toBe('')
  })

  test('a missing demo directory fails with a hint; --demo-port alone is a usage error', async () => {
    const out = { stdout: '', stderr: '' }
    const io = { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env: {}, shutdown: () => new AbortController().signal }
    expect(await runCli(['start', '--gmp-port', '0', '--relay-port', '0', '--demo', join(tmpdir(), 'memweave-no-such-demo')], io)).toBe(1)
    expect(out.stderr).toMatch(/no directory to serve[\s\S]*npm run build:demo/)
    expect(await runCli(['start', '--demo-port', '7413'], io)).toBe(2)
    expect(out.stderr).toMatch(/--demo-port needs --demo/)
  })
})
