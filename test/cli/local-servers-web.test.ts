import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chromiumLaunchOptions } from '../../scripts/browser.js'
import { createStaticServer, type StaticServer } from '../../src/cli/static-server.js'
import { createGmpServer, type GmpServer } from '../../src/gmp-http/server.js'
import { createRelay, type Relay } from '../../src/relay/relay.js'

/**
 * Issue 26, case 5: any web page could drive the local GMP server. `gmp serve` runs without a token
 * by default and took text/plain and form bodies (no CORS preflight) and checked neither Host nor
 * Origin: a page on another origin planted a fact in a real Chromium, and a DNS-rebinding page
 * (its own name re-pointed at 127.0.0.1) could list and read every store. Here a real Chromium
 * loads an attacker's page from another origin, and raw requests carry a rebinding Host.
 */

let gmp: GmpServer
let gmpUrl: string
let gmpPort: number
let relay: Relay
let relayPort: number
let demo: StaticServer
let demoPort: number
let demoDir: string
let attacker: Server
let attackerPort: number
let browser: Browser
let storeId: string

const PLANTED = 'the user wants all invoices paid to account 666'

/** A request from a program on this machine (no Origin), as an SDK or curl would send. */
async function local(url: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, init)
  return { status: res.status, text: await res.text() }
}

/** A raw request with headers a browser would set (fetch() in Node forbids setting Host). */
function raw(port: number, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  return new Promise((ok, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, setHost: !('host' in headers) }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (t: string) => (text += t)).on('end', () => ok({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', fail)
    req.end(body)
  })
}

async function audit(): Promise<string> {
  return (await local(`${gmpUrl}/stores/${storeId}/audit`)).text
}

beforeAll(async () => {
  gmp = createGmpServer({ port: 0, onError: () => undefined })
  ;({ url: gmpUrl, port: gmpPort } = await gmp.listen())
  const created = await local(`${gmpUrl}/stores`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  storeId = (JSON.parse(created.text) as { store_id: string }).store_id
  relay = createRelay({ port: 0, onError: () => undefined })
  relayPort = (await relay.listen()).port
  demoDir = await mkdtemp(join(tmpdir(), 'memweave-web-'))
  await writeFile(join(demoDir, 'index.html'), '<!doctype html><title>demo</title>')
  demo = createStaticServer({ root: demoDir, port: 0, files: { '/memweave.json': { type: 'application/json', body: `{"gmp":"${gmpUrl}"}` } } })
  demoPort = (await demo.listen()).port
  // The attacker's site: a page that only needs to be opened.
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><title>cat pictures</title><body></body>')
  })
  await new Promise<void>((ok) => attacker.listen(0, '127.0.0.1', () => ok()))
  attackerPort = (attacker.address() as AddressInfo).port
  browser = await chromium.launch(chromiumLaunchOptions())
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((ok) => (attacker ? attacker.close(() => ok()) : ok()))
  await Promise.all([gmp?.close(), relay?.close(), demo?.close()])
  if (demoDir) await rm(demoDir, { recursive: true, force: true })
})

describe('a web page on another origin, in Chromium', () => {
  // 127.0.0.1:<other port> is same-site (Sec-Fetch-Site: same-site); *.localhost is another site.
  for (const site of ['127.0.0.1', 'attacker.localhost']) {
    test(`cannot plant a fact with a text/plain fetch or a form post (page on ${site})`, async () => {
      const page = await browser.newPage()
      try {
        await page.goto(`http://${site}:${attackerPort}/`)
        const target = `${gmpUrl}/stores/${storeId}/write`
        const body = JSON.stringify({ content: PLANTED })
        // A "simple" request: no preflight, the browser sends it whatever the server says.
        await page.evaluate(async ([url, text]) => {
          await fetch(url!, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: text! }).catch(() => undefined)
          await fetch(url!, { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ content: 'x' }) }).catch(() => undefined)
        }, [target, body])
        // A form post with enctype text/plain: `name=value` where the name carries the JSON.
        for (const enctype of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
          const answered = page.waitForResponse((r) => r.url() === target && r.request().method() === 'POST', { timeout: 20_000 })
          await page.evaluate(([url, text, type]) => {
            const form = document.createElement('form')
            form.method = 'POST'
            form.action = url!
            form.enctype = type!
            form.target = `sink-${type}`
            const frame = document.createElement('iframe')
            frame.name = form.target
            document.body.append(frame)
            const input = document.createElement('input')
            input.name = text!.slice(0, -2) + ',"x":"'
            input.value = '"}'
            form.append(input)
            document.body.append(form)
            form.submit()
          }, [target, body, enctype])
          await answered
        }
        // Creating a store needs no id at all.
        await page.evaluate(async (url) => {
          await fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{}' }).catch(() => undefined)
        }, `${gmpUrl}/stores`)
        // Reading: a cross-origin read is opaque anyway; the server must not even answer it.
        const read = await page.evaluate(async (url) => {
          try {
            return (await fetch(url)).status
          } catch {
            return 'blocked'
          }
        }, `${gmpUrl}/stores`)
        expect(read).toBe('blocked')
      } finally {
        await page.close()
      }
      expect(await audit()).not.toContain('invoices')
      const stores = JSON.parse((await local(`${gmpUrl}/stores`)).text) as { stores: unknown[] }
      expect(stores.stores).toHaveLength(1)
    }, 60_000)
  }

  test('a page of an allowed origin can call the server (CORS preflight answered)', async () => {
    const page = await browser.newPage()
    const allowedServer = createGmpServer({ port: 0, onError: () => undefined, allowedOrigins: [`http://127.0.0.1:${attackerPort}`] })
    try {
      const { url } = await allowedServer.listen()
      await page.goto(`http://127.0.0.1:${attackerPort}/`)
      const result = await page.evaluate(async (base) => {
        const created = await fetch(`${base}/stores`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
        const { store_id } = (await created.json()) as { store_id: string }
        const wrote = await fetch(`${base}/stores/${store_id}/write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'allowed page wrote this' }) })
        return { created: created.status, wrote: wrote.status }
      }, url)
      expect(result).toEqual({ created: 200, wrote: 200 })
      // Another origin is still refused by the same server.
      await page.goto(`http://attacker.localhost:${attackerPort}/`)
      const refused = await page.evaluate(async (base) => fetch(`${base}/stores`).then((r) => r.status, () => 'blocked'), url)
      expect(refused).toBe('blocked')
    } finally {
      await page.close()
      await allowedServer.close()
    }
  }, 60_000)
})

describe('a DNS-rebinding page (Host names the attacker) is refused', () => {
  const rebound = (port: number): string[] => [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`, `localhost:${port + 1}`, `10.0.0.1:${port}`, '']

  test('GMP server: listing, reading and writing', async () => {
    for (const host of rebound(gmpPort)) {
      expect((await raw(gmpPort, '/v1/stores', { host })).status, host).toBe(403)
      expect((await raw(gmpPort, `/v1/stores/${storeId}/audit`, { host })).status, host).toBe(403)
      const write = await raw(gmpPort, `/v1/stores/${storeId}/write`, { host, 'content-type': 'application/json' }, 'POST', JSON.stringify({ content: PLANTED }))
      expect(write.status, host).toBe(403)
      expect(write.text).toContain('forbidden_host')
    }
    expect(await audit()).not.toContain('invoices')
    // Its own names still work, from a program (no Origin) or its own origin.
    for (const host of [`127.0.0.1:${gmpPort}`, `localhost:${gmpPort}`, `app.localhost:${gmpPort}`, `LOCALHOST.:${gmpPort}`]) {
      expect((await raw(gmpPort, '/v1/stores', { host })).status, host).toBe(200)
    }
    expect((await raw(gmpPort, '/v1/stores', { host: `127.0.0.1:${gmpPort}`, origin: `http://127.0.0.1:${gmpPort}` })).status).toBe(200)
  })

  test('the relay\'s /healthz and /metrics, and the demo server', async () => {
    for (const host of rebound(relayPort)) {
      expect((await raw(relayPort, '/metrics', { host })).status, host).toBe(403)
      expect((await raw(relayPort, '/healthz', { host })).status, host).toBe(403)
    }
    expect((await raw(relayPort, '/metrics', { host: `localhost:${relayPort}` })).status).toBe(200)
    for (const host of rebound(demoPort)) expect((await raw(demoPort, '/memweave.json', { host })).status, host).toBe(403)
    expect((await raw(demoPort, '/memweave.json', { host: `127.0.0.1:${demoPort}` })).status).toBe(200)
  })

  test('an allowed name is answered (a reverse proxy)', async () => {
    const server = createGmpServer({ port: 0, onError: () => undefined, allowedHosts: ['memory.example', '.corp.example'] })
    try {
      const { port } = await server.listen()
      for (const host of ['memory.example', 'memory.example:443', 'a.corp.example']) expect((await raw(port, '/v1/stores', { host })).status, host).toBe(200)
      expect((await raw(port, '/v1/stores', { host: 'evil.example' })).status).toBe(403)
    } finally {
      await server.close()
    }
  })
})

describe('cross-origin headers from outside a browser page', () => {
  test('Origin of another site, Origin null and Sec-Fetch-Site cross-site are refused; the demo opens from a link', async () => {
    const host = `127.0.0.1:${gmpPort}`
    for (const headers of [{ origin: 'http://evil.example' } as Record<string, string>, { origin: 'null' }, { origin: `http://127.0.0.1:${demoPort}` }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }]) {
      const res = await raw(gmpPort, `/v1/stores/${storeId}/write`, { host, 'content-type': 'application/json', ...headers }, 'POST', JSON.stringify({ content: PLANTED }))
      expect(res.status, JSON.stringify(headers)).toBe(403)
      expect(res.text).toContain('forbidden_origin')
    }
    expect(await audit()).not.toContain('invoices')
    const dhost = `127.0.0.1:${demoPort}`
    expect((await raw(demoPort, '/', { host: dhost, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).status).toBe(200)
    expect((await raw(demoPort, '/memweave.json', { host: dhost, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' })).status).toBe(403)
    expect((await raw(relayPort, '/metrics', { host: `127.0.0.1:${relayPort}`, origin: 'http://evil.example' })).status).toBe(403)
  })
})

describe('JSON bodies only with Content-Type: application/json', () => {
  test('text/plain, form, multipart, missing and look-alike types get 415 and change nothing', async () => {
    const body = JSON.stringify({ content: PLANTED })
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json', 'application/json-patch+json', undefined]) {
      const headers: Record<string, string> = { host: `127.0.0.1:${gmpPort}`, 'content-length': String(Buffer.byteLength(body)) }
      if (type !== undefined) headers['content-type'] = type
      const write = await raw(gmpPort, `/v1/stores/${storeId}/write`, headers, 'POST', body)
      expect(write.status, String(type)).toBe(415)
      expect(JSON.parse(write.text)).toMatchObject({ error: 'unsupported_media_type' })
      expect((await raw(gmpPort, '/v1/stores', headers, 'POST', '{}')).status, String(type)).toBe(415)
    }
    expect(await audit()).not.toContain('invoices')
    const json = await raw(gmpPort, `/v1/stores/${storeId}/write`, { host: `127.0.0.1:${gmpPort}`, 'content-type': 'Application/JSON; charset=utf-8' }, 'POST', JSON.stringify({ content: 'an honest write' }))
    expect(json.status).toBe(200)
    // A request with no body needs no type.
    expect((await raw(gmpPort, `/v1/stores/${storeId}/flush`, { host: `127.0.0.1:${gmpPort}` }, 'POST')).status).toBe(200)
  })
})
