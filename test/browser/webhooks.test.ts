import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { App } from '../../src/app/app.js'
import { caseIdForTrace } from '../../src/domain/records/case-commands.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { browserMissing as missing, expectBothWidths, launchBrowser, newPage, PASSWORD, signIn, timed } from '../support/browser.js'
import { seedDeliveries } from '../support/deliveries.js'
import { Receiver } from '../support/receiver.js'
import { webhookEnv } from '../contract/webhooks.flow.js'

let app: App
let base: string
let receiver: Receiver
let browser: Browser
const rest = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })

describe.skipIf(missing !== undefined)('the webhooks page in headless Chromium', () => {
  beforeAll(async () => {
    receiver = await Receiver.start()
    // Retries 50,000 times faster than production: a delivery dead-letters after 12 attempts within about 2 s.
    app = await startTestApp({ ...webhookEnv(receiver), WEBHOOK_BACKOFF_SCALE: '0.00002' }, { listen: true })
    base = app.address!.replace('127.0.0.1', 'localhost')
    browser = await launchBrowser()
    const tenant = app.identity.defaultTenant
    await app.dashboard.createUser(tenant, { email: 'ada@example.com', name: 'Ada Admin', role: 'admin', password: PASSWORD }, 'test', 'trc_test')
    await app.dashboard.createUser(tenant, { email: 'ana@example.com', name: 'Ana Analyst', role: 'analyst', password: PASSWORD }, 'test', 'trc_test')
  })
  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await receiver?.down()
  })

  it('finds a dead-lettered delivery under failed deliveries, opens its payload under its row, and replays it: the message names the new delivery, listed first and highlighted', async () => {
    let failing = true
    receiver.respond = r => ({ status: failing && r.event.type === 'case.created' ? 500 : 200 })
    const endpoint = (await rest('POST', '/v1/webhooks', { url: receiver.url, events: ['case.created'] })).json()
    const trace = (await rest('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: 'u-webhook' })).json().trace_id as string
    const failedCase = caseIdForTrace(trace)
    const dead = await eventually(async () => {
      const list = (await rest('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=failed`)).json()
      return list.data[0] as { id: string, event: { id: string } } | undefined
    }, 30000, 'a failed delivery')

    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await page.getByRole('link', { name: 'Webhooks' }).click()
    // Every delivery failed: the endpoint is enabled, and reads failing.
    const endpointRow = page.locator('table.endpoints tr', { has: page.getByRole('link', { name: endpoint.id }) })
    await expect.poll(() => endpointRow.textContent()).toMatch(/enabled.*Failing: 0 of the last 1 succeeded, 1 failed; no success among them/)
    await page.getByRole('link', { name: endpoint.id }).click()
    await page.getByLabel('Show').selectOption('failed')
    await page.getByRole('button', { name: `Payload of ${dead.id}` }).click()
    await expect.poll(() => page.locator('pre.payload').textContent()).toContain(failedCase)
    expect(await page.locator('table.deliveries').textContent()).toContain('HTTP 500')
    // The payload opens in the row right under the one clicked.
    const row = (await page.locator(`#delivery-${dead.id}`).boundingBox())!
    const payload = (await page.locator('tr.payload-row').boundingBox())!
    expect(Math.abs(payload.y - (row.y + row.height))).toBeLessThan(4)
    await expectBothWidths(page, 'webhooks-payload')

    failing = false
    await page.getByRole('button', { name: `Replay ${dead.id}` }).click()
    const status = page.getByRole('status').filter({ hasText: 'queued as delivery' })
    await expect.poll(() => status.textContent()).toMatch(new RegExp(`Replay of ${dead.id} queued as delivery dlv_\\w+, listed first`))
    const replayId = (await status.getByRole('link').textContent())!
    expect(await status.getByRole('link').getAttribute('href')).toBe(`#delivery-${replayId}`)
    // The id the page names is the delivery's: the API finds it, pointing back at the one replayed.
    expect((await rest('GET', `/v1/webhooks/${endpoint.id}/deliveries/${replayId}`)).json()).toMatchObject({ id: replayId, replay_of: dead.id })
    const first = page.locator('table.deliveries tbody tr').first()
    await expect.poll(() => first.getAttribute('id')).toBe(`delivery-${replayId}`)
    expect(await first.getAttribute('class')).toContain('highlight')
    expect(await first.textContent()).toContain(`replay of ${dead.id}`)
    const delivered = await eventually(() => receiver.received.find(r => r.event.id === dead.event.id), 20000, 'the replayed event')
    expect((delivered.event.data as { case_id: string }).case_id).toBe(failedCase)
    await context.close()
    receiver.respond = () => ({ status: 200 })
  })

  it('lists 1,000 deliveries (812 failed, as the issue saw them) newest first in pages of 25 with Previous and Next, reads failing, and replays all failed after a confirmation', async () => {
    const endpoint = (await rest('POST', '/v1/webhooks', { url: receiver.url.replace('/hooks', '/seeded'), events: ['case.created'], description: 'many' })).json()
    // The oldest 188 delivered, then the receiver broke: the newest 812 dead-lettered after 12 attempts each.
    const seeded = await seedDeliveries(app, app.identity.defaultTenant, endpoint.id, 1000, n => n < 188 ? 'succeeded' : 'failed')
    const newestFirst = seeded.map(d => d.id).reverse()
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    const rows = page.locator('table.deliveries tbody tr')
    await timed('webhooks page: one endpoint\u2019s 1,000 deliveries (812 failed), newest 25', () => page.goto(`${base}/dashboard/webhooks/${endpoint.id}`), () => rows.first().waitFor())
    expect(await rows.evaluateAll(trs => trs.map(tr => tr.id))).toEqual(newestFirst.slice(0, 25).map(id => `delivery-${id}`))
    const endpointRow = page.locator('table.endpoints tr', { has: page.getByRole('link', { name: endpoint.id }) })
    expect(await endpointRow.textContent()).toMatch(/enabled.*Failing: 0 of the last 20 succeeded, 20 failed/)
    await expectBothWidths(page, 'webhooks-deliveries')

    const previous = page.getByRole('button', { name: 'Previous (newer)' })
    const next = page.getByRole('button', { name: 'Next (older)' })
    expect(await previous.isDisabled()).toBe(true)
    await next.click()
    await expect.poll(() => rows.first().getAttribute('id')).toBe(`delivery-${newestFirst[25]}`)
    await next.click()
    await expect.poll(() => rows.first().getAttribute('id')).toBe(`delivery-${newestFirst[50]}`)
    await previous.click()
    await expect.poll(() => rows.first().getAttribute('id')).toBe(`delivery-${newestFirst[25]}`)
    await previous.click()
    await expect.poll(() => rows.first().getAttribute('id')).toBe(`delivery-${newestFirst[0]}`)
    expect(await previous.isDisabled()).toBe(true)

    // Replay all failed asks first; Cancel replays nothing.
    await page.getByRole('button', { name: 'Replay all failed' }).click()
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect(await page.getByRole('button', { name: 'Replay them' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Replay all failed' }).click()
    await page.getByText(/Send every failed delivery of .* that has not been replayed yet/).waitFor()
    await page.getByRole('button', { name: 'Replay them' }).click()
    const status = page.getByRole('status').filter({ hasText: 'Queued 100 replays' })
    await expect.poll(() => status.textContent()).toContain('More failed deliveries are waiting')
    await expect.poll(() => page.locator('table.deliveries tbody tr.highlight').count()).toBe(25)
    const firstReplay = (await status.getByRole('link').textContent())!
    expect((await rest('GET', `/v1/webhooks/${endpoint.id}/deliveries/${firstReplay}`)).json().replay_of).toBe(newestFirst[0])
    await expectBothWidths(page, 'webhooks-replayed')
    await page.getByRole('button', { name: 'Replay all failed' }).click()
    await page.getByRole('button', { name: 'Replay them' }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: /Queued \d+ replays/ }).textContent()).toContain('Queued 100 replays')
    await context.close()
  })

  it('shows the endpoints with their health at both widths, in under a second', async () => {
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ada@example.com')
    await timed('webhooks page: endpoint list with health', () => page.goto(`${base}/dashboard/webhooks`), () => page.locator('table.endpoints tbody tr').first().waitFor())
    await page.getByRole('heading', { name: 'New endpoint' }).waitFor()
    await expectBothWidths(page, 'webhooks')
    await context.close()
  })

  it('tells an analyst which permission the page needs, and offers no form', async () => {
    const { context, page } = await newPage(browser)
    await signIn(page, base, 'ana@example.com')
    expect(await page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0)
    await page.goto(`${base}/dashboard/webhooks`)
    await page.getByText('You need the webhooks:manage permission').waitFor()
    expect(await page.getByRole('heading', { name: 'New endpoint' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0)
    expect(await page.locator('form').count()).toBe(0)
    await expectBothWidths(page, 'webhooks-analyst')
    await page.goto(`${base}/dashboard/webhooks/we_anything`)
    await page.getByText('You need the webhooks:manage permission').waitFor()
    expect(await page.getByRole('button', { name: 'Replay all failed' }).count()).toBe(0)
    await context.close()
  })
})
