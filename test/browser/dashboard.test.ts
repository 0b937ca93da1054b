import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { App } from '../../src/app/app.js'
import { caseIdForTrace } from '../../src/domain/records/case-commands.js'
import { decodeLabel, type FeedbackLabel } from '../../src/domain/records/feedback.js'
import { auth, eventually, startTestApp, tempDir } from '../support/app.js'
import { browserMissing as missing, expectAccessible, launchBrowser, newPage as openPage, PASSWORD, signIn as signInAt } from '../support/browser.js'
import { startService, stopService, type ServiceProcess } from '../support/child.js'
import { Receiver } from '../support/receiver.js'
import { webhookEnv } from '../contract/webhooks.flow.js'

let app: App
let base: string
let receiver: Receiver
let browser: Browser
const labels: FeedbackLabel[] = []
const rest = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })
const newPage = async () => await openPage(browser)
const signIn = async (page: Page, email: string) => await signInAt(page, base, email)

async function caseLinkShown (page: Page, caseId: string): Promise<boolean> {
  await page.reload()
  await page.getByRole('heading', { name: 'Review queue' }).waitFor()
  await page.locator('table.cases').or(page.getByText('No cases.')).waitFor()
  return await page.getByRole('link', { name: caseId }).count() > 0
}

describe.skipIf(missing !== undefined)('the dashboard in headless Chromium', () => {
  let adminId: string
  let flaggedTrace: string
  let caseId: string

  beforeAll(async () => {
    receiver = await Receiver.start()
    // Retries 50,000 times faster than production: a delivery dead-letters after 12 attempts within about 2 s.
    app = await startTestApp({ ...webhookEnv(receiver), WEBHOOK_BACKOFF_SCALE: '0.00002' }, { listen: true })
    base = app.address!.replace('127.0.0.1', 'localhost')
    browser = await launchBrowser()
    await app.log.subscribe({ group: 'browser-test-labels', topics: [app.topics.feedback], fromBeginning: true, onBatch: async records => { for (const r of records) labels.push(decodeLabel(r.value)) } })
    expect((await rest('POST', '/v1/webhooks', { url: receiver.url, events: ['case.dispositioned'] })).statusCode).toBe(200)
  })
  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await receiver?.down()
  })

  it('creates the first admin from the one-time link, signs in, and serves pages that load nothing from elsewhere', async () => {
    const token = await app.dashboard.issueSetupToken(app.identity.defaultTenant)
    const { context, page } = await newPage()
    const response = await page.goto(`${base}/dashboard/setup#${token!}`)
    expect(response!.headers()['content-security-policy']).toContain("default-src 'self'")
    await page.getByRole('heading', { name: 'Create the first admin' }).waitFor()
    await expectAccessible(page, 'setup')
    await page.getByLabel('Name').fill('Ada Admin')
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByLabel(/^Password/).fill('short')
    await page.getByRole('button', { name: 'Create admin' }).click()
    // The form checks before sending, and shows the error next to the field it names.
    await expect.poll(() => page.locator('#f-password-error').textContent()).toContain('12 characters')
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Create admin' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    await expectAccessible(page, 'sign-in')
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByLabel('Password').fill('wrong password here')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong email or password')
    await signIn(page, 'ada@example.com')
    const cookie = (await context.cookies()).find(c => c.name === 'fds_session')!
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
    // No API key anywhere the page can read.
    expect(await page.evaluate(() => document.documentElement.outerHTML + JSON.stringify(localStorage))).not.toMatch(/sk_(test|live)_/)
    adminId = (await page.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()).user.id)) as string
    expect(adminId).toMatch(/^usr_/)
    await context.close()
  })

  it('shows a flagged decision\'s case in the queue; disposing it from the keyboard reaches the webhook receiver and the feedback topic', async () => {
    const { context, page } = await newPage()
    await signIn(page, 'ada@example.com')
    await rest('POST', '/v1/score', { event: 'login', user_id: 'u-other', device_id: 'dev-browser' })
    flaggedTrace = (await rest('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: 'u-browser', device_id: 'dev-browser' })).json().trace_id
    caseId = caseIdForTrace(flaggedTrace)
    await eventually(() => caseLinkShown(page, caseId), 20000, 'the case in the queue')
    await expectAccessible(page, 'queue')

    await page.getByRole('link', { name: caseId }).click()
    await page.getByRole('heading', { name: `Case ${caseId}` }).waitFor()
    await page.getByText('Features it was scored with').waitFor()
    // Linked accounts: the score.async report (it may come after the page) and the accounts seen with the same device.
    await eventually(async () => { await page.reload(); await page.getByText('Features it was scored with').waitFor(); return await page.getByTestId('async-check').count() > 0 }, 20000, 'the score.async report on the case page')
    expect(await page.getByTestId('async-check').textContent()).toContain('1 other accounts share an identifier')
    expect(await page.getByTestId('linked-accounts').textContent()).toContain('u-other (same device)')
    await expectAccessible(page, 'case')
    await page.keyboard.press('f')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('f-reason')
    await page.keyboard.type('stolen card, confirmed by the issuer')
    await page.keyboard.press('Control+Enter')
    await page.getByTestId('pending-disposition').waitFor()
    await expect.poll(() => page.getByTestId('case-status').textContent(), { timeout: 15000 }).toBe('closed (fraud)')
    expect(await page.locator('ol.history').textContent()).toContain(`Closed as fraud by Ada Admin (${adminId}) for ada@example.com: stolen card, confirmed by the issuer`)

    const event = await eventually(() => receiver.received.find(r => r.event.type === 'case.dispositioned' && (r.event.data as { case_id?: string }).case_id === caseId), 20000, 'case.dispositioned at the receiver')
    expect(event.event.data).toMatchObject({ trace_id: flaggedTrace, outcome: 'fraud', reason: 'stolen card, confirmed by the issuer' })
    const label = await eventually(() => labels.find(l => l.trace_id === flaggedTrace), 20000, 'the label on the feedback topic')
    expect(label).toMatchObject({ case_id: caseId, outcome: 'fraud', label: 1, livemode: false })
    await context.close()
  })

  it('finds a decision by its user and by its trace id, with its evaluation and audit trail', async () => {
    const { context, page } = await newPage()
    await signIn(page, 'ada@example.com')
    await page.getByRole('link', { name: 'Decisions' }).click()
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => page.locator('#search-error').textContent()).toContain('Enter a value')
    await page.getByLabel('Value').fill('u-browser')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('link', { name: flaggedTrace }).waitFor()
    await expectAccessible(page, 'decisions')
    await page.getByLabel('Search by').selectOption('trace_id')
    await page.getByLabel('Value').fill(flaggedTrace)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('heading', { name: `Decision ${flaggedTrace}` }).waitFor()
    expect(await page.getByTestId('decision-action').textContent()).toMatch(/^flag/)
    await expect.poll(() => page.locator('ol.history').textContent()).toContain('decision.created by score')
    expect(await page.locator('ol.history').textContent()).toContain(`case.disposition by Ada Admin (${adminId}): outcome fraud, reason \u201cstolen card, confirmed by the issuer\u201d`)
    await expectAccessible(page, 'decision')
    await context.close()
  })

  it('loads every page under its Content-Security-Policy without a violation', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    page.setDefaultTimeout(10_000)
    const violations: string[] = []
    page.on('console', m => { if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text()) })
    await signIn(page, 'ada@example.com')
    for (const [path, heading] of [['/dashboard/overview', 'Overview'], ['/dashboard/rules', 'Rules and lists'], ['/dashboard/decisions', 'Decisions'], ['/dashboard/webhooks', 'Webhooks'], [`/dashboard/cases/${caseId}`, `Case ${caseId}`]] as const) {
      await page.goto(`${base}${path}`)
      await page.getByRole('heading', { name: heading, exact: true }).waitFor()
    }
    expect(violations).toEqual([])
    await context.close()
  })

  it('keeps sandbox and live apart, and a viewer cannot dispose (no button, and the API refuses)', async () => {
    await app.dashboard.createUser(app.identity.defaultTenant, { email: 'vic@example.com', name: 'Vic Viewer', role: 'viewer', password: PASSWORD }, adminId, 'trc_test')
    const open = (await rest('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: 'u-viewer' })).json().trace_id as string
    const openCase = caseIdForTrace(open)
    const { context, page } = await newPage()
    await signIn(page, 'vic@example.com')
    await eventually(() => caseLinkShown(page, openCase), 20000, 'the open case in the queue')
    expect(await page.getByRole('button', { name: 'Claim' }).count()).toBe(0)
    await page.getByRole('link', { name: openCase }).click()
    await page.getByRole('heading', { name: `Case ${openCase}` }).waitFor()
    expect(await page.getByRole('button', { name: /Dispose/ }).count()).toBe(0)
    const refused = await page.evaluate(async id => {
      const session = await (await fetch('/dashboard/api/session')).json()
      const res = await fetch(`/v1/cases/${id}/disposition`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token, 'x-dashboard-mode': 'test' }, body: JSON.stringify({ outcome: 'safe', analyst: 'vic' }) })
      return { status: res.status, body: await res.json() }
    }, openCase)
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('insufficient_scope')

    // Live: the sandbox's cases are not there, and the header says which mode is shown.
    await page.goto(`${base}/dashboard/`)
    await page.getByLabel('Sandbox').uncheck()
    await page.getByText('No cases.').waitFor()
    expect(await page.getByRole('link', { name: openCase }).count()).toBe(0)
    await page.goto(`${base}/dashboard/cases/${openCase}`)
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('No such case')
    await page.getByLabel('Sandbox').check()
    await page.goto(`${base}/dashboard/cases/${openCase}`)
    await page.getByRole('heading', { name: `Case ${openCase}` }).waitFor()
    await context.close()
  })

  it('does not let a user of another tenant open a case by its URL', async () => {
    await app.dashboard.createUser('ten_other', { email: 'bob@other.example', name: 'Bob', role: 'admin', password: PASSWORD }, 'test', 'trc_test')
    const { context, page } = await newPage()
    await signIn(page, 'bob@other.example')
    await page.goto(`${base}/dashboard/cases/${caseId}`)
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('No such case')
    await context.close()
  })

  it('refuses a change sent from another origin with the user\'s cookie', async () => {
    const { context, page } = await newPage()
    await signIn(page, 'ada@example.com')
    // A page on another port of the same host: same site, so the SameSite cookie goes along; the Origin check refuses.
    const evil = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html')
      res.end(`<form id="f" method="POST" action="${base}/v1/cases" enctype="text/plain"><input name='{"subjects":{"user_id":"x"},"a":"' value='"}'></form><script>document.getElementById('f').submit()</script>`)
    })
    await new Promise<void>(resolve => evil.listen(0, '127.0.0.1', resolve))
    try {
      const refused = page.waitForResponse(r => r.url() === `${base}/v1/cases` && r.request().method() === 'POST')
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`)
      const res = await refused
      expect(res.status()).toBe(403)
      expect((await res.json()).error.code).toBe('csrf_failed')
    } finally {
      evil.close()
      await context.close()
    }
    expect((await rest('GET', '/v1/cases?limit=100')).json().data.some((c: { subjects: { user_id?: string } }) => c.subjects.user_id === 'x')).toBe(false)
  })
})

describe.skipIf(missing !== undefined)('the dashboard of a service started as `npm start` starts it', () => {
  it('prints its address and a one-time link on the first start; the link creates the first admin, once', async () => {
    const dataDir = tempDir('fds-dash-')
    const first = await startService({ DATA_DIR: dataDir })
    let second: ServiceProcess | undefined
    const browser = await launchBrowser()
    try {
      await eventually(() => /Create its first admin/.test(first.output()) || undefined, 10000, 'the setup link')
      expect(first.output()).toContain(`Dashboard: ${first.url}/dashboard/`)
      const link = /Create its first admin \(one-time link\): (\S+)/.exec(first.output())![1]!
      expect(link).toMatch(new RegExp(`^${first.url}/dashboard/setup#[A-Za-z0-9_-]{32}$`))
      const page = await browser.newPage()
      page.setDefaultTimeout(10_000)
      await page.goto(link)
      await page.getByLabel('Name').fill('First Admin')
      await page.getByLabel('Email').fill('first@example.com')
      await page.getByLabel(/^Password/).fill(PASSWORD)
      await page.getByRole('button', { name: 'Create admin' }).click()
      await page.getByRole('heading', { name: 'Sign in' }).waitFor()
      await page.getByLabel('Email').fill('first@example.com')
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Review queue' }).waitFor()
      await stopService(first)
      second = await startService({ DATA_DIR: dataDir })
      expect(second.output()).toContain(`Dashboard: ${second.url}/dashboard/`)
      expect(second.output()).not.toContain('Create its first admin')
    } finally {
      await browser.close()
      await stopService(first)
      if (second !== undefined) await stopService(second)
    }
  })
})
