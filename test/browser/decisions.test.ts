import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { App } from '../../src/app/app.js'
import { auth, createTenant, startTestApp } from '../support/app.js'
import { browserMissing, expectBothWidths, launchBrowser, newPage, PASSWORD, seedOpenCases, signIn, timed } from '../support/browser.js'

/** The decisions search and a decision's page, in Chromium at 1440 and 390 px, on 10,000 decisions and 10,000 open cases. */
let app: App
let base: string
let browser: Browser
const rest = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
/** Scores `events` through the batch endpoint, 500 a call; returns their trace ids in order. */
async function scoreAll (events: object[], key?: string): Promise<string[]> {
  const traces: string[] = []
  for (let i = 0; i < events.length; i += 500) {
    const res = await rest('POST', '/v1/score/batch', { events: events.slice(i, i + 500) }, key)
    expect(res.statusCode).toBe(200)
    traces.push(...res.json().data.map((d: { trace_id: string }) => d.trace_id))
  }
  return traces
}
const newestFirst = (traces: string[]) => [...traces].sort().reverse()
const rowIds = async (page: Page) => await page.locator('table.decisions tbody tr td:first-child a').allTextContents()
const pageStatus = (page: Page) => page.getByTestId('decisions-page')

describe.skipIf(browserMissing !== undefined)('the decisions search and a decision\'s page in headless Chromium', () => {
  let many: string[]
  let fromIp: string[]

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '10000000' }, { listen: true })
    base = app.address!.replace('127.0.0.1', 'localhost')
    browser = await launchBrowser()
    await app.dashboard.createUser(app.identity.defaultTenant, { email: 'ada@example.com', name: 'Ada Admin', role: 'admin', password: PASSWORD }, 'test', 'trc_test')
    // 10,000 decisions of other users, a queue of 10,000 open cases, then one user's 120 decisions among them.
    await scoreAll(Array.from({ length: 10_000 }, (_, n) => ({ event: 'login', user_id: `u-crowd-${n}`, ip: `198.51.100.${n % 200}` })))
    await seedOpenCases(app, app.identity.defaultTenant, 10_000)
    many = await scoreAll(Array.from({ length: 120 }, (_, n) => ({ event: 'login', user_id: 'u-many', device_id: 'dev-many', ip: n % 3 === 0 ? '203.0.113.9' : '192.0.2.10' })))
    fromIp = many.filter((_, n) => n % 3 === 0)
    // The same address in another tenant: never shown here.
    const other = await createTenant(app, 'Another tenant')
    await scoreAll([{ event: 'login', user_id: 'u-elsewhere', ip: '203.0.113.9' }], other.keys.test)
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await app?.close()
  })

  it('pages through a user\'s 120 decisions 50 at a time with Next and Previous, saying which ones it shows', async () => {
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await page.goto(`${base}/dashboard/decisions`)
    await page.getByLabel('Search by').selectOption('user_id')
    await page.getByLabel('Value').fill('u-many')
    const expected = newestFirst(many)
    await timed('decisions search: the first 50 of a user\'s 120 decisions', () => page.getByRole('button', { name: 'Search' }).click(),
      () => expect.poll(() => pageStatus(page).textContent()).toBe('Decisions 1–50, newest first. Older ones follow: Next.'))
    expect(new URL(page.url()).search).toBe('?user_id=u-many')
    expect(await rowIds(page)).toEqual(expected.slice(0, 50))
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true)
    await expectBothWidths(page, 'decisions-search')

    await timed('decisions search: the next 50', () => page.getByRole('button', { name: 'Next' }).click(),
      () => expect.poll(() => pageStatus(page).textContent()).toBe('Decisions 51–100, newest first. Older ones follow: Next.'))
    expect(await rowIds(page)).toEqual(expected.slice(50, 100))
    await page.getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => pageStatus(page).textContent()).toBe('Decisions 101–120, newest first. These are the oldest.')
    expect(await rowIds(page)).toEqual(expected.slice(100))
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)
    await expectBothWidths(page, 'decisions-search-last-page')
    await page.getByRole('button', { name: 'Previous' }).click()
    await expect.poll(() => pageStatus(page).textContent()).toBe('Decisions 51–100, newest first. Older ones follow: Next.')
    expect(await rowIds(page)).toEqual(expected.slice(50, 100))

    // The search is the page's address: reloaded, it shows the first page again.
    await timed('decisions search: a user\'s decisions loaded from the address', () => page.reload(),
      () => expect.poll(() => pageStatus(page).textContent()).toBe('Decisions 1–50, newest first. Older ones follow: Next.'))
    expect(await page.getByLabel('Value').inputValue()).toBe('u-many')
    await context.close()
  })

  it('searches by IP address, only this tenant\'s, and says so when the address is not one', async () => {
    const { context, page } = await newPage(browser, 'phone')
    await signIn(page, base, 'ada@example.com')
    await page.goto(`${base}/dashboard/decisions`)
    await page.getByLabel('Search by').selectOption({ label: 'IP address' })
    await page.getByLabel('Value').fill('203.0.113.999')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => page.locator('#search-error').textContent()).toBe("Invalid value for 'ip': must be an IPv4 or IPv6 address.")
    expect(await page.getByLabel('Value').getAttribute('aria-invalid')).toBe('true')
    await expectBothWidths(page, 'decisions-search-ip-invalid')
    await page.getByLabel('Value').fill('203.0.113.9')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => pageStatus(page).textContent()).toBe('40 decisions, newest first.')
    expect(await rowIds(page)).toEqual(newestFirst(fromIp))
    expect(await page.locator('#search-error').count()).toBe(0)
    expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0)
    await expectBothWidths(page, 'decisions-search-ip')
    await page.getByLabel('Value').fill('203.0.113.10')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'No decisions' }).textContent()).toBe('No decisions from this IP address (203.0.113.10).')
    await context.close()
  })

  it('shows a decision: its request block scrolls, is reachable by keyboard and named; its subjects link to their other decisions', async () => {
    // A request long and wide enough that its block scrolls both ways.
    const metadata = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}`, `value ${i} `.repeat(i === 7 ? 30 : 1)]))
    const d = (await rest('POST', '/v1/score', { event: 'payment', amount: 20_000, currency: 'EUR', user_id: 'u-many', device_id: 'dev-many', ip: '203.0.113.9', email: 'a.rather.long.address.for.a.phone@example.com', metadata })).json()
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await timed('decision page', () => page.goto(`${base}/dashboard/decisions/${d.trace_id as string}`),
      () => page.getByRole('heading', { name: 'Audit trail' }).waitFor())
    await expect.poll(() => page.locator('ol.history').textContent()).toContain('decision.created by score')
    const request = page.getByRole('region', { name: 'Request as sent' })
    expect(await request.getAttribute('tabindex')).toBe('0')
    expect(await request.evaluate(e => e.scrollHeight > e.clientHeight && e.scrollWidth > e.clientWidth)).toBe(true)
    await request.focus()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Request as sent')
    await expectBothWidths(page, 'decision')
    await page.getByText('Features it was evaluated with').click()
    await expectBothWidths(page, 'decision-features')

    await page.getByRole('link', { name: 'IP address 203.0.113.9' }).click()
    await expect.poll(() => pageStatus(page).textContent()).toBe('41 decisions, newest first.')
    expect(await rowIds(page)).toEqual(newestFirst([...fromIp, d.trace_id]))
    expect(await page.getByLabel('Search by').inputValue()).toBe('ip')
    // A trace id opens its decision.
    await page.getByLabel('Search by').selectOption('trace_id')
    await page.getByLabel('Value').fill(d.trace_id)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('heading', { name: `Decision ${d.trace_id as string}` }).waitFor()
    await context.close()
  })
})
