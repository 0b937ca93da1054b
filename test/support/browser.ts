import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { expect } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import type { App } from '../../src/app/app.js'
import { DASHBOARD_DIST } from '../../src/dashboard/serve.js'
import { caseStateRecord } from '../../src/domain/records/cases.js'
import { applyCaseCommand } from '../../src/domain/cases/transitions.js'
import type { CaseCommand } from '../../src/domain/records/case-commands.js'

/** Debian's chromium package (.ci/run installs it); CHROMIUM_PATH names another build. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** Each page's screenshots, kept by the run (not committed). */
export const SHOTS = path.resolve(import.meta.dirname, '../../test-results/dashboard')
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
export const PASSWORD = 'a long enough password'

/** The two widths every page is checked at: a laptop and a phone. */
export const WIDTHS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const
export type Width = keyof typeof WIDTHS

/** Why browser tests cannot run here, if they cannot (the describe skips with it). */
export const browserMissing = !existsSync(CHROMIUM)
  ? `no Chromium at ${CHROMIUM} (apt-get install chromium, as .ci/run does)`
  : !existsSync(path.join(DASHBOARD_DIST, 'index.html')) ? 'the dashboard is not built (npm run build:dashboard)' : undefined
if (browserMissing !== undefined) console.warn(`[skip] dashboard in a browser: ${browserMissing}`)

export async function launchBrowser (): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true })
  return await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
}

export async function newPage (browser: Browser, width: Width = 'desktop'): Promise<{ context: BrowserContext, page: Page }> {
  // bypassCSP lets the test inject axe-core; the CSP itself is checked on the response headers.
  const context = await browser.newContext({ bypassCSP: true, viewport: WIDTHS[width] })
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  return { context, page }
}

export async function signIn (page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/dashboard/`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Review queue' }).waitFor()
}

/** axe-core's WCAG checks on the page as it is (no serious or critical violation), and its screenshot. */
export async function expectAccessible (page: Page, name: string): Promise<void> {
  await page.addScriptTag({ content: AXE })
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: () => Promise<{ violations: Array<{ id: string, impact: string, nodes: Array<{ target: unknown }> }> }> } }).axe.run()
    return result.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => JSON.stringify(n.target)) }))
  })
  expect(violations.filter(v => v.impact === 'serious' || v.impact === 'critical'), name).toEqual([])
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
}

/**
 * The page as it is, at both widths: accessible at each (screenshots `<name>-desktop.png`, `<name>-phone.png`),
 * and at the phone's width nothing wider than the screen (no sideways scrolling of the page itself).
 */
export async function expectBothWidths (page: Page, name: string): Promise<void> {
  const before = page.viewportSize()
  for (const width of ['desktop', 'phone'] as const) {
    await page.setViewportSize(WIDTHS[width])
    if (width === 'phone') {
      const { wide, culprits } = await page.evaluate((screen) => {
        // The deepest elements reaching past the screen's right edge: what makes the page scroll sideways.
        const past = [...document.body.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > screen + 1)
        // Text running out of its box (a long word) reaches past the edge while its element does not.
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
        for (let t = walker.nextNode(); t !== null; t = walker.nextNode()) {
          const range = document.createRange()
          range.selectNodeContents(t)
          if (range.getBoundingClientRect().right > screen + 1 && t.parentElement !== null && !past.includes(t.parentElement)) past.push(t.parentElement)
        }
        const deepest = past.filter(e => !past.some(o => o !== e && e.contains(o)))
        const label = (e: Element) => `${e.tagName.toLowerCase()}${e.id === '' ? '' : '#' + e.id}${typeof e.className === 'string' && e.className !== '' ? '.' + e.className.split(' ').join('.') : ''} (${Math.round(e.getBoundingClientRect().right)} px): ${(e.textContent ?? '').slice(0, 40)}`
        return { wide: document.documentElement.scrollWidth, culprits: deepest.slice(0, 5).map(label) }
      }, WIDTHS.phone.width)
      expect(wide, `${name} at 390 px is ${wide} px wide; past the edge: ${culprits.join(' | ')}`).toBeLessThanOrEqual(WIDTHS.phone.width)
    }
    await expectAccessible(page, `${name}-${width}`)
  }
  if (before !== null) await page.setViewportSize(before)
}

/** Milliseconds from `act` until `ready` resolves: a page's load as an analyst waits for it. */
export async function timed (what: string, act: () => Promise<unknown>, ready: () => Promise<unknown>, limitMs = 1000): Promise<number> {
  const started = performance.now()
  await act()
  await ready()
  const ms = Math.round(performance.now() - started)
  console.log(`page timing: ${what} in ${ms} ms`)
  expect(ms, what).toBeLessThan(limitMs)
  return ms
}

/** `count` open cases of a tenant's sandbox, through the cases topic and its view as the case writer's would go. */
export async function seedOpenCases (app: App, tenant: string, count: number, shape: (n: number) => Partial<Extract<CaseCommand, { type: 'open' }>> = () => ({})): Promise<void> {
  const at = Date.now() - 3_600_000 * 24 * 3
  for (let from = 0; from < count; from += 1000) {
    const records = Array.from({ length: Math.min(1000, count - from) }, (_, i) => {
      const n = from + i
      const cmd = { id: `cmd_q${n}`, type: 'open' as const, tenant_id: tenant, mode: 'test' as const, case_id: `case_q${String(n).padStart(5, '0')}`, at_ms: at + n * 1000, actor: 'case-opener', trace_id: null, reason: 'Flagged', opened_by: 'rule' as const, rules: [n % 2 === 0 ? 'even_rule' : 'odd_rule'], score: (n % 997) / 997, subjects: { user_id: `u${n}` }, ...shape(n) }
      const opened = applyCaseCommand(undefined, cmd)
      if (!opened.accepted) throw new Error(opened.error.message)
      return caseStateRecord(cmd, { case: opened.case, command: { id: cmd.id, accepted: true } })
    })
    await app.log.append(app.topics.cases, records)
  }
  await app.cases.catchUp()
}
