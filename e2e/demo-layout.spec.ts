import { mkdir } from 'node:fs/promises'
import { expect as baseExpect, test, type Page } from '@playwright/test'
import { startDemo, type DemoStack, type Device } from './demo-stack.js'

/**
 * The demo's layout at a desktop (1280 px) and a phone (390 px) width, with every card filled: a
 * pool with a member, an invite, memories with long values, a conflict and a timeline. Screenshots
 * go to test-results/ and are attached to the report; the page must not scroll sideways and no
 * element may stick out of its card (issue 17: the memories table ended 18 px past its card at
 * 1280 px, and the page was 630 px wide at 390 px).
 */

const expect = baseExpect.configure({ timeout: 20_000 })
/** The W3C example Ed25519 did:key: a member that never connects. */
const MEMBER = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
const SHOTS = new URL('../test-results/demo-layout/', import.meta.url).pathname

let stack: DemoStack

test.beforeAll(async () => {
  test.setTimeout(120_000)
  stack = await startDemo()
  await mkdir(SHOTS, { recursive: true })
})

test.afterAll(async () => {
  await stack?.stop()
})

async function fill(d: Device): Promise<void> {
  const { page } = d
  await page.getByTestId('pool-name').fill('household')
  await page.getByTestId('create-pool').click()
  await expect(page.getByTestId('pool-title')).toHaveText('household')
  await page.getByTestId('share-did').fill(MEMBER)
  await page.getByTestId('share').click()
  await expect(page.getByTestId('join-link')).toHaveValue(/#join=/)
  for (const [subject, predicate, object] of [
    ['Aria', 'lives_in', 'Rome'],
    ['Aria', 'lives_in', 'Milan'],
    ['Aria', 'favourite_breakfast_in_the_morning', 'a very long cappuccino with an extra shot and oat milk, no sugar'],
    ['supercalifragilisticexpialidocious_subject', 'likes', 'https://example.com/a/very/long/url/without/any/spaces/at/all/1234567890'],
  ]) {
    await page.getByTestId('write-subject').fill(subject!)
    await page.getByTestId('write-predicate').fill(predicate!)
    await page.getByTestId('write-object').fill(object!)
    await page.getByTestId('write').click()
    await expect(page.getByTestId('memories')).toContainText(object!.slice(0, 20))
  }
  await expect(page.getByTestId('pool-conflict')).toHaveCount(1)
}

interface Overflow {
  readonly card: string
  readonly element: string
  readonly box: readonly number[]
  readonly cardBox: readonly number[]
}

/** Elements (visible ones, clipped by scrolling ancestors) outside their card by more than 1 px, buttons narrower than their label, and scrollers inside a card that overflow sideways. */
function outsideCards(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const out: { card: string; element: string; box: number[]; cardBox: number[] }[] = []
    const name = (el: Element): string => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}.${[...el.classList].join('.')}`
    for (const card of document.querySelectorAll('.card')) {
      const c = card.getBoundingClientRect()
      if (c.width === 0) continue
      for (const el of card.querySelectorAll('*')) {
        if (el.getClientRects().length === 0) continue
        let r = el.getBoundingClientRect()
        let left = r.left, right = r.right, top = r.top, bottom = r.bottom
        // What a scrolling ancestor hides is not outside the card; the ancestor itself is checked below.
        for (let a = el.parentElement; a && a !== card; a = a.parentElement) {
          const style = getComputedStyle(a)
          if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
            const b = a.getBoundingClientRect()
            left = Math.max(left, b.left); right = Math.min(right, b.right); top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom)
          }
        }
        if (right <= left || bottom <= top) continue
        if (left < c.left - 1 || right > c.right + 1 || top < c.top - 1 || bottom > c.bottom + 1) {
          out.push({ card: name(card), element: name(el), box: [left, right, top, bottom].map(Math.round), cardBox: [c.left, c.right, c.top, c.bottom].map(Math.round) })
        }
        // A button squeezed narrower than its label (the label spills over its edge).
        if (el instanceof HTMLButtonElement && el.scrollWidth > el.clientWidth + 1) {
          out.push({ card: name(card), element: `${name(el)} "${el.textContent}" is narrower than its label (${el.clientWidth} < ${el.scrollWidth})`, box: [left, right], cardBox: [c.left, c.right].map(Math.round) })
        }
        // A sideways scroller would hide an overflow instead of fixing it (form fields scroll their own text).
        if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
          r = el.getBoundingClientRect()
          out.push({ card: name(card), element: `${name(el)} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`, box: [r.left, r.right].map(Math.round), cardBox: [c.left, c.right].map(Math.round) })
        }
      }
    }
    return out
  })
}

for (const width of [1280, 390]) {
  test(`the demo at ${width} px: no sideways scrolling, nothing outside its card`, async ({ browser }, info) => {
    const d = await stack.device(browser, `${width}px`, { width, height: 900 })
    await fill(d)
    const shot = `${SHOTS}demo-${width}.png`
    await d.page.screenshot({ path: shot, fullPage: true })
    await info.attach(`demo at ${width} px`, { path: shot, contentType: 'image/png' })

    const widths = await d.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }))
    console.log(`demo at ${width} px: page ${widths.scroll} px wide in a ${widths.inner} px viewport`)
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner)
    expect(await outsideCards(d.page)).toEqual([])

    if (width === 1280) {
      // The Write button stays on the line of the fields it submits.
      const button = (await d.page.getByTestId('write').boundingBox())!
      const field = (await d.page.getByTestId('write-object').boundingBox())!
      expect(Math.abs(button.y + button.height / 2 - (field.y + field.height / 2))).toBeLessThan(4)
    }
    expect(d.errors).toEqual([])
  })
}
