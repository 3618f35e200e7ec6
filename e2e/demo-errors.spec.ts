import { expect as baseExpect, test, type ConsoleMessage, type Page } from '@playwright/test'
import { startDemo, type DemoStack, type Device } from './demo-stack.js'
import { RelayProcess, killAllRelays, removeDir, tempDir } from './relay-process.js'

/**
 * The demo when things go wrong (issue 29, item 6), through the page's controls as in
 * e2e/demo.spec.ts: a relay that goes down is not a refusal, Enter in the name dialog keeps the name,
 * a failed share's banner goes at the next success, and an expected refusal is one console line.
 */

const expect = baseExpect.configure({ timeout: 20_000 })

let stack: DemoStack

test.beforeAll(async () => {
  test.setTimeout(120_000)
  stack = await startDemo()
})

test.afterAll(async () => {
  await stack?.stop()
  await killAllRelays()
})

/** A device whose page dials `relay` (the demo's `?relay=` override) instead of the relay of `memweave start`. */
async function deviceOn(relay: string, device: Device): Promise<void> {
  await device.page.goto(`${stack.url}?relay=${encodeURIComponent(relay)}`)
  await expect(device.page.locator('#relay-url')).toHaveText(relay)
}

async function createPool(page: Page, name: string): Promise<void> {
  await page.getByTestId('pool-name').fill(name)
  await page.getByTestId('create-pool').click()
  await expect(page.getByTestId('pool-title')).toHaveText(name)
  await expect(page.getByTestId('sync-state')).toHaveAttribute('data-state', 'synced')
}

test('a relay that goes down is "unreachable, retrying" on the owner\'s device, not a refusal, and the pool syncs again when it is back', async ({ browser }) => {
  test.setTimeout(180_000)
  const dir = await tempDir()
  let relay = await RelayProcess.start(dir)
  try {
    const a = await stack.device(browser, 'owner')
    await deviceOn(relay.url, a)
    await createPool(a.page, 'household')
    const item = a.page.getByTestId('pool-item')

    await relay.stop() // SIGTERM: every connection closed with 1001 going-away, then nothing listens
    await expect(a.page.getByTestId('sync-state')).toHaveAttribute('data-state', 'offline')
    await expect(a.page.getByTestId('sync-state')).toHaveText('Relay unreachable, retrying')
    await expect(item).toContainText('relay unreachable, retrying')
    await expect(a.page.getByTestId('pool-sync')).toContainText('The relay cannot be reached; retrying')
    // Not the refusal's words, badge or advice: the token is fine and the owner has nobody to ask.
    await expect(item).not.toContainText('needs attention')
    await expect(a.page.getByTestId('pool-problem')).toBeHidden()
    await expect(a.page.locator('body')).not.toContainText('refused')
    await expect(a.page.locator('body')).not.toContainText('ask the pool\'s owner')

    // Back on its port and directory: the provider's own retries reconnect, with nothing pressed.
    relay = await relay.restart()
    await expect(a.page.getByTestId('sync-state')).toHaveAttribute('data-state', 'synced', { timeout: 60_000 })
    await expect(item).not.toContainText('unreachable')
    expect(a.errors).toEqual([])
  } finally {
    await relay.stop()
    await removeDir(dir)
  }
})

test('Enter in the name dialog keeps the name typed (Save is the default button); Escape still cancels', async ({ browser }) => {
  const a = await stack.device(browser, 'namer')
  await a.page.getByTestId('rename-me').click()
  await a.page.getByTestId('rename-input').fill('Alice')
  await a.page.getByTestId('rename-input').press('Enter')
  await expect(a.page.getByTestId('rename')).toBeHidden()
  await expect(a.page.getByTestId('agent-name')).toHaveText('Alice')

  await a.page.getByTestId('rename-me').click()
  await a.page.getByTestId('rename-input').fill('Bob')
  await a.page.getByTestId('rename-input').press('Escape')
  await expect(a.page.getByTestId('rename')).toBeHidden()
  await expect(a.page.getByTestId('agent-name')).toHaveText('Alice')
})

test('a failed share\'s banner clears when the share then succeeds', async ({ browser }) => {
  const a = await stack.device(browser, 'sharer')
  const b = await stack.device(browser, 'member')
  await createPool(a.page, 'team')
  await a.page.getByTestId('share-did').fill('did:key:nope')
  await a.page.getByTestId('share').click()
  await expect(a.page.getByTestId('error')).toBeVisible()
  await expect(a.page.locator('#error-title')).toHaveText('That is not an agent ID.')

  await a.page.getByTestId('share-did').fill(b.did)
  await a.page.getByTestId('share').click()
  await expect(a.page.getByTestId('join-link')).toHaveValue(/#join=/)
  await expect(a.page.getByTestId('error')).toBeHidden()
})

test('expected refusals log one console line each, with no stack trace', async ({ browser }) => {
  const a = await stack.device(browser, 'refused')
  const c = await stack.device(browser, 'stranger')
  // The console prints an Error object with its stack trace (DevTools, and Node's console): what
  // counts is whether an Error was logged, not Playwright's one-line text() of it.
  const logged: Array<Promise<{ text: string; errorObject: boolean }>> = []
  const inspect = async (m: ConsoleMessage) => ({
    text: m.text(),
    errorObject: (await Promise.all(m.args().map((arg) => arg.evaluate((v) => v instanceof Error).catch(() => false)))).includes(true),
  })
  for (const d of [a, c]) d.page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') logged.push(inspect(m)) })
  await createPool(a.page, 'private')
  // A memweave refusal (INVALID_ARGUMENT, a mistyped agent ID) ...
  await a.page.getByTestId('share-did').fill('did:key:nope')
  await a.page.getByTestId('share').click()
  await expect(a.page.locator('#error-title')).toHaveText('That is not an agent ID.')
  // ... and one of the demo's own (a join link made for another agent).
  const made = await stack.device(browser, 'invited')
  await a.page.getByTestId('share-did').fill(made.did)
  await a.page.getByTestId('share').click()
  await expect(a.page.getByTestId('join-link')).toHaveValue(/#join=/)
  const link = await a.page.getByTestId('join-link').inputValue()
  await c.page.goto(link)
  await expect(c.page.locator('#error-title')).toContainText('This join link was made for another agent')

  const lines = await Promise.all(logged)
  expect(lines.filter((l) => l.text.includes('must be an Ed25519 did:key'))).toHaveLength(1)
  expect(lines.filter((l) => l.text.includes('This join link was made for another agent'))).toHaveLength(1)
  for (const l of lines) {
    expect(l.errorObject, `logged with its stack trace: ${l.text}`).toBe(false)
    expect(l.text, 'one line').not.toContain('\n')
  }
})
