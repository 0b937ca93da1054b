import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { App } from '../../src/app/app.js'
import { caseIdForTrace } from '../../src/domain/records/case-commands.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { browserMissing, expectBothWidths, launchBrowser, newPage, PASSWORD, seedOpenCases, signIn, timed } from '../support/browser.js'

/** The review queue and the case page as an analyst works them, in Chromium at 1440 and 390 px. */
let app: App
let base: string
let browser: Browser
let adminId: string
const rest = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })
const caseOf = async (id: string) => (await rest('GET', `/v1/cases/${id}`)).json()
/** A flagged payment (amount over 10,000) of a user, with what an analyst triages, and its case once opened. */
async function flaggedCase (user: string, extra: object = {}): Promise<string> {
  const d = (await rest('POST', '/v1/score', { event: 'payment', amount: 20_000, currency: 'eur', user_id: user, merchant_id: 'm-electronics', channel: 'web', geo: { country: 'FR', city: 'Lyon', lat: 45.76, lon: 4.84 }, ...extra })).json()
  expect(d.action).toBe('flag')
  const id = caseIdForTrace(d.trace_id)
  await eventually(async () => (await rest('GET', `/v1/cases/${id}`)).statusCode === 200 || undefined, 20000, 'the flag\'s case')
  return id
}
async function openCasePage (page: Page, id: string): Promise<void> {
  await page.goto(`${base}/dashboard/cases/${id}`)
  await page.getByRole('heading', { name: 'Trail' }).waitFor()
}

describe.skipIf(browserMissing !== undefined)('the review queue and the case page in headless Chromium', () => {
  beforeAll(async () => {
    app = await startTestApp({}, { listen: true })
    base = app.address!.replace('127.0.0.1', 'localhost')
    browser = await launchBrowser()
    adminId = (await app.dashboard.createUser(app.identity.defaultTenant, { email: 'ada@example.com', name: 'Ada Admin', role: 'admin', password: PASSWORD }, 'test', 'trc_test')).id
    await app.dashboard.createUser(app.identity.defaultTenant, { email: 'vic@example.com', name: 'Vic Viewer', role: 'viewer', password: PASSWORD }, 'test', 'trc_test')
    // A shadow rule, so decisions say what it would have done.
    expect((await rest('POST', '/v1/rules', { id: 'shadow_big', name: 'Big, in shadow', expression: 'has(request.amount) && request.amount > 15000.0', action: 'reject', mode: 'shadow' })).statusCode).toBe(200)
  })
  afterAll(async () => {
    await browser?.close()
    await app?.close()
  })

  it('shows the transaction on the case: amount, merchant, channel, place, the decision\'s link, why it was flagged, signals in words, shadow and counterfactual', async () => {
    const id = await flaggedCase('u-tx', { email: 'someone@mailinator.com' })
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await timed('case page loaded', () => openCasePage(page, id), () => page.getByTestId('case-signals').waitFor())
    const facts = page.getByTestId('case-transaction')
    expect(await facts.textContent()).toContain('€20,000.00')
    for (const text of ['m-electronics', 'web', 'Lyon, FR (45.76, 4.84)', 'payment']) expect(await facts.textContent()).toContain(text)
    expect(await page.getByTestId('score-explanation').textContent()).toMatch(/The model gave it a score of 0\.\d{3} \(\w+ risk\).*The action \(flag\) came from the rule amount_over_10000, not from the score\./)
    expect(await page.getByTestId('shadow').textContent()).toBe('Would have rejected it: shadow_big.')
    expect(await page.getByTestId('counterfactual').textContent()).toMatch(/^with an amount of €[\d,.]+ instead of €20,000\.00\.$/)
    const signals = await page.getByTestId('case-signals').locator('li').allTextContents()
    expect(signals.length).toBeGreaterThan(0)
    for (const s of signals) expect(s).toMatch(/^[a-z0-9 ]+: [A-Z].+\.$/)
    const trace = (await caseOf(id)).trace_id as string
    await page.getByRole('link', { name: `the decision ${trace}` }).click()
    await page.getByRole('heading', { name: `Decision ${trace}` }).waitFor()
    await openCasePage(page, id)
    await expectBothWidths(page, 'case')
    await context.close()
  })

  it('handles a subject\'s cases together: lists them, links decisions to their cases, closes them in one go after an undo window, then offers the next case', async () => {
    const ids = [await flaggedCase('u-ring'), await flaggedCase('u-ring'), await flaggedCase('u-ring')]
    const spare = await flaggedCase('u-next')
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await openCasePage(page, ids[0]!)
    await expect.poll(() => page.getByTestId('sibling-cases').locator('tbody tr').count()).toBe(2)
    const recent = page.getByTestId('recent-decisions')
    for (const other of ids.slice(1)) expect(await recent.getByRole('link', { name: other }).count()).toBe(1)
    expect(await recent.textContent()).toContain('this case')

    // A slip: s and Ctrl+Enter with no reason closes nothing.
    await page.keyboard.press('s')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('f-reason')
    await page.keyboard.press('Control+Enter')
    await expect.poll(() => page.locator('#reason-error').textContent()).toContain('Give a reason')
    // Undone within the window: still open.
    await page.keyboard.type('known customer')
    await page.keyboard.press('Control+Enter')
    await page.getByTestId('pending-disposition').waitFor()
    await page.getByRole('button', { name: 'Undo' }).click()
    await page.waitForTimeout(5500)
    expect((await caseOf(ids[0]!)).history.map((h: { type: string }) => h.type)).toEqual(['opened'])

    await page.getByLabel('fraud').check()
    await page.getByLabel('Reason (required)').fill('one ring: same device and card')
    await page.getByLabel(/Also close the subject's 2 other open cases/).check()
    await page.getByRole('button', { name: 'Dispose (Ctrl+Enter)' }).click()
    expect(await page.getByTestId('pending-disposition').textContent()).toMatch(/Closing 3 cases as fraud in \d s/)
    await expect.poll(() => page.getByTestId('case-status').textContent(), { timeout: 15000 }).toBe('closed (fraud)')
    for (const id of ids) expect(await caseOf(id)).toMatchObject({ status: 'closed', outcome: 'fraud' })
    for (const id of ids) expect((await caseOf(id)).history.at(-1)).toMatchObject({ type: 'dispositioned', reason: 'one ring: same device and card', actor_name: 'Ada Admin' })
    expect(await page.locator('ol.history').textContent()).toContain(`Closed as fraud by Ada Admin (${adminId}) for ada@example.com: one ring: same device and card`)
    await page.getByTestId('next-case').click()
    await page.getByRole('heading', { name: /^Case case_/ }).waitFor()
    expect(page.url()).not.toContain(ids[0]!)
    expect(spare).toMatch(/^case_/)
    await context.close()
  })

  it('keeps notes and a true trail: opened by the rules, claimed, notes with their author, the outcome and its reason; a chargeback from the page', async () => {
    const id = await flaggedCase('u-notes')
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await openCasePage(page, id)
    await page.getByRole('button', { name: 'Claim' }).click()
    await expect.poll(() => page.locator('ol.history').textContent()).toContain(`Assigned to ada@example.com by Ada Admin (${adminId})`)
    expect(await page.locator('ol.history li').first().textContent()).toContain('Opened by the rules: Flagged by rules: amount_over_10000')
    await page.getByRole('button', { name: 'Add note' }).click()
    await expect.poll(() => page.locator('#note-error').textContent()).toContain('Write the note first')
    await page.getByLabel('New note').fill('Called the cardholder: they did not make it.')
    await page.getByRole('button', { name: 'Add note' }).click()
    await expect.poll(() => page.getByTestId('case-notes').textContent()).toContain('Called the cardholder: they did not make it.Ada Admin')
    expect(await page.locator('ol.history').textContent()).toContain('Note by Ada Admin')
    expect((await caseOf(id)).notes).toHaveLength(1)

    await page.getByLabel('safe').check()
    await page.getByLabel('Reason (required)').fill('the cardholder confirmed')
    await page.getByRole('button', { name: 'Dispose (Ctrl+Enter)' }).click()
    await expect.poll(() => page.getByTestId('case-status').textContent(), { timeout: 15000 }).toBe('closed (safe)')
    await page.getByLabel('Issuer\'s notice or reason').fill('issuer notice 4837')
    await page.getByRole('button', { name: 'Record a chargeback' }).click()
    await expect.poll(() => page.getByTestId('case-status').textContent()).toBe('closed (chargeback)')
    expect(await page.locator('ol.history').textContent()).toContain('Closed as chargeback by Ada Admin')
    await expectBothWidths(page, 'case-closed')
    await context.close()
  })

  it('tells at a glance how many wait and for how long, filters with pickers and "assigned to me", and closes chosen rows together', async () => {
    const ids = [await flaggedCase('u-bulk-1'), await flaggedCase('u-bulk-2')]
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    const summary = (await rest('GET', '/v1/cases/summary')).json()
    await expect.poll(() => page.getByTestId('queue-glance').textContent()).toMatch(new RegExp(`^${summary.open} open · ${summary.in_review} in review · oldest waiting \\d+ (s|min) · 0 assigned to you$`))
    const row = page.locator('table.cases tbody tr').filter({ has: page.getByRole('link', { name: ids[0]! }) })
    expect(await row.textContent()).toContain('€20,000.00')
    expect(await row.textContent()).toContain('payment')
    expect(await row.textContent()).toContain('flag')
    expect(await page.getByLabel('Rule').locator('option').allTextContents()).toEqual(expect.arrayContaining(['Any rule', 'amount_over_10000', 'shadow_big']))
    await page.getByRole('button', { name: `Claim ${ids[1]}` }).click()
    await expect.poll(() => page.getByTestId('queue-glance').textContent()).toContain('1 assigned to you')
    await page.getByLabel('Show').selectOption('mine')
    await expect.poll(() => page.locator('table.cases tbody').textContent()).toContain(ids[1])
    expect(await page.locator('table.cases tbody tr').count()).toBe(1)
    await page.getByLabel('Show').selectOption('open')
    await page.getByLabel(`Choose ${ids[0]}`).waitFor()
    await page.getByLabel(`Choose ${ids[0]}`).check()
    await expectBothWidths(page, 'queue')
    await page.getByLabel(/^Outcome for 1 case/).selectOption('fraud')
    await page.getByRole('button', { name: 'Close 1 as fraud' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Give a reason')
    await page.getByLabel('Reason', { exact: true }).fill('card testing ring')
    await page.getByRole('button', { name: 'Close 1 as fraud' }).click()
    await expect.poll(() => page.getByTestId('bulk-result').textContent()).toBe('1 closed.')
    expect(await caseOf(ids[0]!)).toMatchObject({ status: 'closed', outcome: 'fraud' })
    await context.close()
  })

  it('a viewer sees the case and the queue but no control that changes them', async () => {
    const id = await flaggedCase('u-viewer')
    const { context, page } = await newPage(browser, 'phone')
    await signIn(page, base, 'vic@example.com')
    expect(await page.getByRole('button', { name: /^Claim/ }).count()).toBe(0)
    expect(await page.getByRole('checkbox', { name: /^Choose/ }).count()).toBe(0)
    await openCasePage(page, id)
    for (const name of [/Dispose/, /Claim/, /Add note/]) expect(await page.getByRole('button', { name }).count()).toBe(0)
    await context.close()
  })

  it('loads the queue and a case page of a queue of 10,000 cases in under a second each', async () => {
    const tenant = 'ten_queue'
    await seedOpenCases(app, tenant, 10_000, n => ({
      rules: ['amount_over_10000'],
      subjects: { user_id: `u${n % 2500}` },
      transaction: { event: 'payment', amount: 100 + n, currency: 'EUR', merchant: `m${n % 40}`, channel: 'web', location: { country: 'FR', city: null, lat: null, lon: null }, action: 'flag', risk_level: 'medium', signals: ['high_amount', 'new_device'], shadow: null, counterfactual: null }
    }))
    await app.dashboard.createUser(tenant, { email: 'queue@example.com', name: 'Quinn', role: 'analyst', password: PASSWORD }, 'test', 'trc_test')
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'queue@example.com')
    const firstRow = (id: string) => () => page.locator('table.cases tbody tr').first().getByRole('link', { name: id }).waitFor()
    await timed('queue of 10,000: first page', () => page.goto(`${base}/dashboard/`), firstRow('case_q00000'))
    await expect.poll(() => page.getByTestId('queue-glance').textContent()).toMatch(/^10000 open · 0 in review · oldest waiting 3 days/)
    expect(await page.locator('table.cases tbody tr').count()).toBe(50)
    await timed('queue of 10,000: next page', () => page.getByRole('button', { name: 'Next' }).click(), firstRow('case_q00050'))
    await timed('queue of 10,000: previous page', () => page.getByRole('button', { name: 'Previous' }).click(), firstRow('case_q00000'))
    await timed('queue of 10,000: ordered by score', () => page.getByLabel('Order').selectOption('score'), firstRow('case_q00996'))
    await timed('queue of 10,000: filtered by rule', () => page.getByLabel('Rule').selectOption('amount_over_10000'), firstRow('case_q00996'))
    await expectBothWidths(page, 'queue-10000')
    await timed('queue of 10,000: a case page', () => openCasePage(page, 'case_q00007'), () => page.getByTestId('sibling-cases').locator('tbody tr').nth(2).waitFor())
    expect(await page.getByTestId('sibling-cases').locator('tbody tr').count()).toBe(3)
    await expectBothWidths(page, 'case-of-10000')
    await context.close()
  })
})
