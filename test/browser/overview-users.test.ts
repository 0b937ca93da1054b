import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { App } from '../../src/app/app.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { browserMissing as missing, expectAccessible, expectBothWidths, launchBrowser, newPage, PASSWORD, seedOpenCases, signIn, timed, WIDTHS } from '../support/browser.js'
import { seedDeliveries } from '../support/deliveries.js'
import { Receiver } from '../support/receiver.js'
import { webhookEnv } from '../contract/webhooks.flow.js'

let app: App
let base: string
let receiver: Receiver
let browser: Browser
let tenant: string
const rest = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })
/** A name long enough to be cut by a header that does not wrap. */
const ADMIN_NAME = 'Augusta Ada King, Countess of Lovelace'

/** Each bar chart row's label ends before its bar starts, and its figure starts after the bar; the chart has no blank area under its rows. */
async function expectBarsReadable (page: Page, chart: string): Promise<number> {
  const rows = await page.getByRole('img', { name: chart }).evaluate(el => {
    const box = (e: Element | null) => e!.getBoundingClientRect()
    const rows = [...el.querySelectorAll('.bar-row')].map(r => ({ label: box(r.querySelector('.bar-label')), bar: box(r.querySelector('svg.bar')), value: box(r.querySelector('.bar-value')) }))
    const last = rows[rows.length - 1]
    return {
      rows: rows.map(r => ({ labelRight: r.label.right, labelBottom: r.label.bottom, barTop: Math.min(r.bar.top, r.value.top), barLeft: r.bar.left, barRight: r.bar.right, valueLeft: r.value.left, valueRight: r.value.right })),
      blank: last === undefined ? 0 : box(el).bottom - Math.max(last.label.bottom, last.value.bottom, last.bar.bottom),
      right: box(el).right
    }
  })
  for (const r of rows.rows) {
    // The label beside the bar (desktop) or above it (phone), never over the bar or its figure.
    expect(r.labelRight <= r.barLeft || r.labelBottom <= r.barTop, `${chart}: a label over its bar`).toBe(true)
    expect(r.valueLeft, chart).toBeGreaterThanOrEqual(r.barRight)
    expect(r.valueRight, chart).toBeLessThanOrEqual(rows.right + 1)
  }
  expect(rows.blank, `${chart}: blank under its rows`).toBeLessThan(4)
  return rows.rows.length
}

/**
 * At the phone's width: the header shows the whole name, keeps Sign out inside it, and is no wider than the screen
 * (and, with `wholePage`, neither is the page: the pages of this file).
 */
async function expectHeaderFits (page: Page, wholePage: boolean): Promise<void> {
  const fit = await page.evaluate(() => {
    const header = document.querySelector('header.top')!.getBoundingClientRect()
    const who = document.querySelector<HTMLElement>('[data-testid=signed-in-as]')!
    const out = [...document.querySelectorAll('header.top button')].find(b => b.textContent === 'Sign out')!.getBoundingClientRect()
    const links = [...document.querySelectorAll('header.top nav a')].map(a => a.getBoundingClientRect())
    return {
      header: { left: header.left, right: header.right, top: header.top, bottom: header.bottom },
      whoCut: who.scrollWidth > who.clientWidth + 1, whoRight: who.getBoundingClientRect().right,
      out: { left: out.left, right: out.right, top: out.top, bottom: out.bottom },
      linksRight: Math.max(...links.map(l => l.right)),
      headerWide: document.querySelector('header.top')!.scrollWidth,
      wide: document.documentElement.scrollWidth
    }
  })
  expect(fit.whoCut, 'the name is cut').toBe(false)
  expect(fit.whoRight).toBeLessThanOrEqual(WIDTHS.phone.width)
  expect(fit.out.right).toBeLessThanOrEqual(Math.min(fit.header.right, WIDTHS.phone.width))
  expect(fit.out.top).toBeGreaterThanOrEqual(fit.header.top)
  expect(fit.out.bottom).toBeLessThanOrEqual(fit.header.bottom)
  expect(fit.linksRight).toBeLessThanOrEqual(WIDTHS.phone.width)
  expect(fit.header.right).toBeLessThanOrEqual(WIDTHS.phone.width)
  expect(fit.headerWide).toBeLessThanOrEqual(WIDTHS.phone.width)
  if (wholePage) expect(fit.wide).toBeLessThanOrEqual(WIDTHS.phone.width)
}

describe.skipIf(missing !== undefined)('the overview and the users page in headless Chromium', () => {
  beforeAll(async () => {
    receiver = await Receiver.start()
    app = await startTestApp(webhookEnv(receiver), { listen: true })
    base = app.address!.replace('127.0.0.1', 'localhost')
    browser = await launchBrowser()
    tenant = app.identity.defaultTenant
    await app.dashboard.createUser(tenant, { email: 'ada@example.com', name: ADMIN_NAME, role: 'admin', password: PASSWORD }, 'test', 'trc_test')
    await app.dashboard.createUser(tenant, { email: 'ana@example.com', name: 'Ana Analyst', role: 'analyst', password: PASSWORD }, 'test', 'trc_test')
  })
  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await receiver?.down()
  })

  it('draws the overview: the case backlog and its oldest, failed deliveries and failing endpoints, rule hit trends, why quality is not measured, decisions per minute, scores, latency, the model, lag per topology', async () => {
    for (let i = 0; i < 3; i++) await rest('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: `u-overview-${i}` })
    await rest('POST', '/v1/score', { event: 'payment', amount: 25, user_id: 'u-overview-small' })
    const failing = (await rest('POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', '/overview-failing'), events: ['signal.updated'] })).json() as { id: string }
    await seedDeliveries(app, tenant, failing.id, 7, () => 'failed')
    await eventually(async () => (await rest('GET', '/v1/overview')).json().decisions >= 4 || undefined, 10000, 'the decisions drawn')
    const summary = (await rest('GET', '/v1/cases/summary')).json()

    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await page.getByRole('link', { name: 'Overview' }).click()
    await page.getByRole('heading', { name: 'Overview' }).waitFor()
    expect(Number(await page.getByTestId('overview-decisions').textContent())).toBeGreaterThanOrEqual(4)
    expect(await page.getByTestId('overview-model').textContent()).toMatch(/^prior-|^trees-/)
    for (const chart of ['Decisions per minute by action', 'Scores (decisions per tenth)', 'Consumer lag per group (records)']) {
      expect(await page.getByRole('img', { name: chart }).count(), chart).toBe(1)
    }
    // The backlog and its oldest case, as the queue counts them; each tile opens the page that acts on it.
    const backlog = page.getByTestId('overview-backlog')
    expect(await backlog.textContent()).toContain(`${summary.open + summary.in_review}open cases: ${summary.open} open, ${summary.in_review} in review`)
    expect(await backlog.getAttribute('href')).toBe('/dashboard/')
    expect(await page.getByTestId('overview-oldest').textContent()).toMatch(/(under a minute|\d+ min)the oldest open case’s age \(opened 20\d\d-/)
    // Failed deliveries of the last 24 hours, and the endpoint that fails, linked to its deliveries.
    expect(await page.getByTestId('overview-failed-deliveries').textContent()).toMatch(/^7failed webhook deliveries in the last 24 h; 7 not replayed in all/)
    expect(await page.getByTestId('overview-failing-endpoints').textContent()).toMatch(/^1of 1 webhook endpoints failing/)
    expect(await page.getByRole('link', { name: /overview-failing/ }).getAttribute('href')).toBe(`/dashboard/webhooks/${failing.id}`)
    // The top rule's hits, with its trend per five minutes and a link to the rule.
    const trend = page.getByTestId('rule-trend-amount_over_10000')
    expect(await trend.locator('td').nth(1).textContent()).toBe('3')
    expect(await trend.locator('svg.trend rect').count()).toBe(12)
    expect(await trend.getByRole('link', { name: 'amount_over_10000' }).getAttribute('href')).toBe('/dashboard/rules/amount_over_10000')
    expect(await page.getByRole('columnheader', { name: /^Per 5 minutes, from \d\d:\d\d$/ }).count()).toBe(1)
    // Why quality is not measured yet: nothing has matured, and what it waits for.
    expect(await page.getByTestId('overview-quality').textContent()).toMatch(/^Not measured yet: no decision has matured\. A decision’s label matures LABEL_MATURITY_DAYS \(10 by default\).*MODEL_MIN_FRAUDS \(30 by default\)/)
    // Charts: group names never run over their bars or figures, at either width, and nothing blank under the rows.
    for (const width of ['desktop', 'phone'] as const) {
      await page.setViewportSize(WIDTHS[width])
      expect(await expectBarsReadable(page, 'Scores (decisions per tenth)')).toBe(10)
      await expectBarsReadable(page, 'Consumer lag per group (records)')
    }
    await page.setViewportSize(WIDTHS.desktop)
    await expectBothWidths(page, 'overview')
    await context.close()
  })

  it('draws group names wider than any fixed gutter beside, not over, their figures', async () => {
    const { context, page } = await newPage(browser, 'phone')
    await signIn(page, base, 'ada@example.com')
    await page.goto(`${base}/dashboard/overview`)
    await page.getByRole('img', { name: 'Scores (decisions per tenth)' }).waitFor()
    // A label as long as a consumer group's name can be (a topology and its group): it wraps in its own column.
    await page.evaluate(() => { document.querySelector('.bar-label')!.textContent = 'decisions-materializer-by-tenant-and-mode-group-0' })
    await expectBarsReadable(page, 'Scores (decisions per tenth)')
    await context.close()
  })

  it('keeps the header whole on a phone: the full name, Sign out in the bar, the nav wrapped, nothing wider than the screen', async () => {
    const { context, page } = await newPage(browser, 'phone')
    await signIn(page, base, 'ada@example.com')
    expect(await page.getByTestId('signed-in-as').textContent()).toBe(`${ADMIN_NAME} (admin)`)
    // The queue (its own width is its page's business): the header itself fits.
    await expectHeaderFits(page, false)
    for (const path of ['/dashboard/overview', '/dashboard/users']) {
      await page.goto(`${base}${path}`)
      await page.locator('main h1').waitFor()
      await expectHeaderFits(page, true)
    }
    await page.screenshot({ path: 'test-results/dashboard/header-phone.png' })
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    await context.close()
  })

  it('lets an admin list users with their roles, add one, change a role, disable and enable again; linked in the nav; a deep link serves the page', async () => {
    const deep = await fetch(`${base}/dashboard/users`)
    expect(deep.status).toBe(200)
    expect(deep.headers.get('content-type')).toContain('text/html')

    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await page.getByRole('link', { name: 'Users' }).click()
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor()
    const rows = page.locator('table.users tbody tr')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await page.getByTestId('user-ada@example.com').textContent()).toContain(`${ADMIN_NAME} (you)`)
    // One's own role and status are not changed here (the API refuses it too).
    expect(await page.getByTestId('user-ada@example.com').locator('select, button').count()).toBe(0)
    expect(await page.getByLabel('Role of Ana Analyst').inputValue()).toBe('analyst')

    await page.getByLabel('Name').fill('Vic Viewer')
    await page.getByLabel('Email').fill('vic@example.com')
    await page.getByLabel('Role', { exact: true }).selectOption('viewer')
    await page.getByLabel(/^Password/).fill('short')
    await page.getByRole('button', { name: 'Add user' }).click()
    await expect.poll(() => page.locator('#f-password-error').textContent()).toContain('12 characters')
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Add user' }).click()
    await expect.poll(() => page.locator('p.saved').textContent()).toContain('Vic Viewer (vic@example.com) can now sign in as a viewer')
    await expect.poll(() => rows.count()).toBe(3)
    // The same email twice: the API's error is shown.
    await page.getByLabel('Name').fill('Vic Again')
    await page.getByLabel('Email').fill('vic@example.com')
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Add user' }).click()
    await page.getByRole('alert').waitFor()

    await page.getByLabel('Role of Vic Viewer').selectOption('analyst')
    await expect.poll(() => page.locator('p.saved').textContent()).toBe('Vic Viewer is now an analyst.')
    const vic = (await rest('GET', '/v1/dashboard_users?limit=100')).json().data.find((u: { email: string }) => u.email === 'vic@example.com')
    expect(vic).toMatchObject({ role: 'analyst', status: 'active' })
    await page.getByRole('button', { name: 'Disable Vic Viewer' }).click()
    await expect.poll(() => page.getByTestId('user-vic@example.com').textContent()).toContain('Disabled')
    expect((await rest('GET', `/v1/dashboard_users/${vic.id as string}`)).json().status).toBe('disabled')
    await expectBothWidths(page, 'users')
    await page.getByRole('button', { name: 'Enable Vic Viewer' }).click()
    await expect.poll(() => page.getByTestId('user-vic@example.com').textContent()).toContain('Active')
    await context.close()
  })

  it('tells an analyst that users are for admins: no Users link, and the page says so', async () => {
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ana@example.com')
    expect(await page.locator('header.top nav').getByRole('link', { name: 'Users' }).count()).toBe(0)
    await page.goto(`${base}/dashboard/users`)
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor()
    expect(await page.locator('main [role=status]').textContent()).toContain('Only an admin can see and change the dashboard\u2019s users')
    expect(await page.locator('table.users, form.new-user').count()).toBe(0)
    await expectBothWidths(page, 'users-analyst')
    await context.close()
  })

  it('loads the overview and the users page under their Content-Security-Policy without a violation', async () => {
    // No bypass here: a style attribute or inline script on these pages would be refused and reported.
    const context = await browser.newContext({ viewport: WIDTHS.phone })
    const page = await context.newPage()
    page.setDefaultTimeout(10_000)
    const violations: string[] = []
    page.on('console', m => { if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text()) })
    await signIn(page, base, 'ada@example.com')
    for (const [path, ready] of [['/dashboard/overview', 'overview-backlog'], ['/dashboard/users', 'user-ada@example.com']] as const) {
      await page.goto(`${base}${path}`)
      await page.getByTestId(ready).waitFor()
    }
    expect(violations).toEqual([])
    await context.close()
  })

  it('loads the overview and the users page in under a second with 10,000 open cases', async () => {
    await seedOpenCases(app, tenant, 10_000)
    const started = performance.now()
    const body = (await rest('GET', '/v1/overview')).json()
    console.log(`page timing: GET /v1/overview with ${body.cases.open as number} open cases in ${Math.round(performance.now() - started)} ms`)
    expect(body.cases.open).toBeGreaterThanOrEqual(10_000)
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await timed('overview with 10,000 open cases', () => page.goto(`${base}/dashboard/overview`), async () => {
      await expect.poll(() => page.getByTestId('overview-backlog').textContent()).toMatch(/^1\d{4}open cases/)
    })
    await timed('users page with 10,000 open cases', () => page.goto(`${base}/dashboard/users`), () => page.locator('table.users tbody tr').first().waitFor())
    await context.close()
  })
})
