import { expect as baseExpect, test, type Page } from '@playwright/test'
import { startDemo, type DemoStack, type Device } from './demo-stack.js'

/**
 * The demo as a person meets it after `npm start` (e2e/demo-stack.ts): two browser contexts are two
 * devices, a third is an agent the link was not made for. Everything is done through the page's
 * controls: name yourself, create a pool, share it (a bad agent ID first), open the link on the
 * wrong agent and on the right one, write on each, settle one conflict by keeping a value and one
 * by merging, go offline and back, reload, forget (cancelled, then confirmed), remove the member
 * and let it leave.
 */

// Replication is fast, but three Chromium contexts, a worker each and the relay share a small machine.
const expect = baseExpect.configure({ timeout: 20_000 })

let stack: DemoStack

test.beforeAll(async () => {
  test.setTimeout(120_000)
  stack = await startDemo()
})

test.afterAll(async () => {
  await stack?.stop()
})

async function writeMemory(d: Device, subject: string, predicate: string, object: string): Promise<void> {
  await d.page.getByTestId('write-subject').fill(subject)
  await d.page.getByTestId('write-predicate').fill(predicate)
  await d.page.getByTestId('write-object').fill(object)
  await d.page.getByTestId('write').click()
  await expect(d.page.getByTestId('memories')).toContainText(object)
}

async function setName(page: Page, name: string): Promise<void> {
  await page.getByTestId('rename-me').click()
  await page.getByTestId('rename-input').fill(name)
  await page.getByTestId('rename-ok').click()
  await expect(page.getByTestId('agent-name')).toHaveText(name)
}

const timeline = (d: Device) => d.page.getByTestId('timeline')

/** A screenshot in test-results/demo/, attached to the report: to look at, not compared. */
async function shot(page: Page, name: string): Promise<void> {
  const path = `${new URL('../test-results/demo/', import.meta.url).pathname}${name}.png`
  await page.screenshot({ path })
  await test.info().attach(name, { path, contentType: 'image/png' })
}

test('two devices share a pool through the relay of `memweave start`, from the demo page alone', async ({ browser }) => {
  test.setTimeout(240_000)
  const a = await stack.device(browser, 'A')
  const b = await stack.device(browser, 'B')
  const c = await stack.device(browser, 'C')
  expect(new Set([a.did, b.did, c.did]).size).toBe(3)
  await expect(a.page.getByTestId('agent-did')).toHaveText(/^did:key:z6Mk\w+…\w{4}$/) // shortened; the full DID is its title

  // Before any pool: no red "offline", empty states that say what to do.
  await expect(a.page.getByTestId('sync-state')).toHaveText('No shared pool yet')
  await expect(a.page.getByTestId('sync-state')).not.toHaveClass(/offline/)
  await expect(a.page.getByTestId('no-pool')).toBeVisible()
  await expect(a.page.getByTestId('pool-list')).toContainText('No pools yet')
  await expect(a.page.getByTestId('conflicts')).toContainText('No contradictions')
  await setName(a.page, 'Alice')

  // A creates a pool: it is connected to the relay with an owner-proven token and in step.
  await a.page.getByTestId('pool-name').fill('household')
  await a.page.getByTestId('create-pool').click()
  await expect(a.page.getByTestId('pool-title')).toHaveText('household')
  await expect(a.page.getByTestId('sync-state')).toHaveAttribute('data-state', 'synced')
  await expect(a.page.getByTestId('no-memories')).toBeVisible()

  // A mistyped agent ID: a human message (the code only under "Technical details").
  const error = a.page.getByTestId('error')
  await a.page.getByTestId('share-did').fill('did:key:nope')
  await a.page.getByTestId('share').click()
  await expect(error).toBeVisible()
  await expect(a.page.locator('#error-title')).toHaveText('That is not an agent ID.')
  await expect(a.page.locator('#error-title')).not.toContainText('INVALID_ARGUMENT')
  await expect(a.page.locator('#error-detail')).toContainText('INVALID_ARGUMENT')

  // A shares it with B's DID, naming B, and gets a join link; the share that worked takes the failed one's banner down.
  await a.page.getByTestId('share-did').fill(b.did)
  await a.page.getByTestId('share-name').fill('Bob')
  await a.page.getByTestId('share').click()
  await expect(a.page.getByTestId('join-link')).toHaveValue(/#join=[A-Za-z0-9_-]+$/)
  await expect(a.page.getByTestId('member').filter({ hasText: 'Bob' })).toContainText('reads and writes')
  await expect(a.page.getByTestId('member').filter({ hasText: 'Bob' }).locator('.who')).toHaveAttribute('title', b.did)
  await a.page.getByTestId('member').filter({ hasText: 'Bob' }).locator('.who').click() // a click copies the full DID
  await expect(a.page.locator('#message')).toHaveText('Copied.')
  expect(await a.page.evaluate(() => navigator.clipboard.readText())).toBe(b.did)
  await expect(error).toBeHidden()
  const link = await a.page.getByTestId('join-link').inputValue()

  // C is not the agent the link was made for: it says so and what to do, and does not sit "waiting" under a green badge.
  await c.page.goto(link)
  await expect(c.page.getByTestId('error')).toBeVisible()
  await expect(c.page.locator('#error-title')).toContainText('This join link was made for another agent')
  await expect(c.page.locator('#error-hint')).toContainText('Send the pool\'s owner your agent ID')
  await expect(c.page.getByTestId('pool-list')).toContainText('No pools yet')
  await expect(c.page.getByTestId('sync-state')).toHaveText('No shared pool yet')
  await shot(c.page, 'wrong-agent')
  await c.page.getByTestId('error-close').click() // stays until dismissed (or the same action succeeds)
  await expect(c.page.getByTestId('error')).toBeHidden()

  // B opens it: the pool arrives, and A goes by the name A chose.
  await b.page.getByTestId('join-code').fill(link)
  await b.page.getByTestId('join-pool').click()
  await expect(b.page.getByTestId('pool-title')).toHaveText('household')
  await expect(b.page.getByTestId('members')).toContainText('You')
  await expect(b.page.getByTestId('member').filter({ hasText: 'Alice' })).toContainText('owner')
  await expect(b.page.getByTestId('write')).toBeVisible() // B was granted write
  await expect(b.page.getByTestId('leave-pool')).toBeVisible()
  await expect(a.page.getByTestId('leave-pool')).toBeHidden() // an owner does not leave its pool

  // A writes; B sees it arrive, attributed to Alice.
  await writeMemory(a, 'Aria', 'lives_in', 'Rome')
  await expect(b.page.getByTestId('memories')).toContainText('Rome')
  await expect(timeline(b)).toContainText('Aria · lives_in · Rome, from Alice')

  // B writes a different object for the same subject and predicate: both flag one conflict, listed once.
  await writeMemory(b, 'Aria', 'lives_in', 'Milan')
  await expect(a.page.getByTestId('memories')).toContainText('Milan')
  for (const d of [a, b]) {
    await expect(d.page.getByTestId('pool-conflict')).toHaveCount(1)
    await expect(d.page.getByTestId('fact-conflict')).toHaveCount(0)
    await expect(d.page.getByTestId('conflicts')).not.toContainText('mem.facts')
    await expect(d.page.getByTestId('pool-conflict')).toContainText('Aria · lives_in')
  }

  // A keeps Milan: settled on both, Rome superseded, the timelines say which value won and who chose.
  await a.page.getByRole('button', { name: 'Keep "Milan"' }).click()
  for (const d of [a, b]) {
    await expect(d.page.getByTestId('pool-conflict')).toHaveCount(0)
    await expect(d.page.locator('tr.archived')).toContainText('Rome')
    await expect(d.page.getByTestId('memory-count')).toHaveText('· 1 live, 1 superseded')
  }
  await expect(timeline(a)).toContainText('conflict on Aria · lives_in settled by you: "Milan" kept over "Rome"')
  await expect(timeline(b)).toContainText('conflict on Aria · lives_in settled by Alice: "Milan" kept over "Rome"')
  await expect(a.page.getByTestId('pool-item')).toContainText('1 memory')

  // A second conflict, merged by B: one memory replaces both, and A's timeline names Bob and the value kept.
  await writeMemory(a, 'Aria', 'works_at', 'Acme')
  await expect(b.page.getByTestId('memories')).toContainText('Acme')
  await writeMemory(b, 'Aria', 'works_at', 'Globex')
  await expect(a.page.getByTestId('pool-conflict')).toHaveCount(1)
  await expect(b.page.getByTestId('pool-conflict')).toHaveCount(1)
  await b.page.getByTestId('pool-conflict').getByRole('button', { name: 'Merge into one' }).click()
  for (const d of [a, b]) {
    await expect(d.page.getByTestId('pool-conflict')).toHaveCount(0)
    await expect(d.page.getByTestId('memory-count')).toHaveText('· 2 live, 3 superseded')
  }
  await expect(timeline(a)).toContainText('Bob merged the conflict on Aria · works_at: "Globex" kept')
  await expect(timeline(b)).toContainText('you merged the conflict on Aria · works_at: "Globex" kept')

  // B goes offline (only then is Reconnect offered): A's next write waits for it, and arrives when B reconnects.
  const link_ = b.page.getByTestId('pool-sync')
  await expect(link_.getByRole('button', { name: 'Reconnect' })).toBeDisabled()
  await link_.getByRole('button', { name: 'Go offline' }).click()
  await expect(b.page.getByTestId('sync-state')).toHaveAttribute('data-state', 'offline')
  await expect(link_.getByRole('button', { name: 'Go offline' })).toBeDisabled()
  await writeMemory(a, 'Aria', 'speaks', 'Italian')
  await expect(b.page.getByTestId('memories')).not.toContainText('Italian')
  await link_.getByRole('button', { name: 'Reconnect' }).click()
  await expect(b.page.getByTestId('memories')).toContainText('Italian')

  // A reload keeps the agent, the names and the pool, and reconnects with the remembered join code.
  await b.page.reload()
  await expect(b.page.getByTestId('agent-did')).toHaveAttribute('title', b.did)
  await expect(b.page.getByTestId('pool-title')).toHaveText('household')
  await expect(b.page.getByTestId('sync-state')).toHaveAttribute('data-state', 'synced')
  await expect(b.page.getByTestId('member').filter({ hasText: 'Alice' })).toBeVisible()

  // Forget asks first: cancelled, nothing happens; confirmed, it is gone on both and the timelines say who forgot what.
  const italian = a.page.getByTestId('memory').filter({ hasText: 'Italian' })
  await italian.getByTestId('forget').click()
  await expect(a.page.getByTestId('confirm')).toBeVisible()
  await expect(a.page.getByTestId('confirm')).toContainText('every device')
  await shot(a.page, 'forget-confirm')
  await a.page.getByTestId('confirm-cancel').click()
  await expect(a.page.getByTestId('confirm')).toBeHidden()
  await expect(italian).toHaveCount(1)
  await italian.getByTestId('forget').click()
  await a.page.getByTestId('confirm-ok').click()
  for (const d of [a, b]) await expect(d.page.getByTestId('memories')).not.toContainText('Italian')
  await expect(timeline(a)).toContainText('you forgot Aria · speaks · Italian')
  await expect(timeline(b)).toContainText('Alice forgot Aria · speaks · Italian')

  // A removes Bob (after confirming): B is told it lost access, can no longer write, and leaves.
  await a.page.getByTestId('member').filter({ hasText: 'Bob' }).getByTestId('revoke').click()
  await expect(a.page.getByTestId('confirm')).toContainText('Remove Bob')
  await a.page.getByTestId('confirm-ok').click()
  await expect(a.page.getByTestId('member')).toHaveCount(1)
  await expect(timeline(a)).toContainText('Bob removed by you')
  await expect(b.page.getByTestId('pool-problem')).toContainText('You no longer have access to this pool')
  await expect(b.page.getByTestId('write-form')).toBeHidden()
  await expect(timeline(b)).toContainText('"household": this agent can no longer read it')
  await b.page.getByTestId('leave-pool').click()
  await b.page.getByTestId('confirm-ok').click()
  await expect(b.page.getByTestId('pool-item')).toHaveCount(0)
  await expect(b.page.getByTestId('no-pool')).toBeVisible()

  for (const d of [a, b, c]) expect(d.errors).toEqual([])
  await expect(a.page.getByTestId('error')).toBeHidden()
  await expect(b.page.getByTestId('error')).toBeHidden()
})
