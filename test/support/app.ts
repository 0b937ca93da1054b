import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { startApp, type App, type AppOptions } from '../../src/app/app.js'
import { loadConfig, type Config } from '../../src/app/config.js'
import { ContractHarness } from './contract.js'

export const TEST_KEY = 'sk_test_contracttestkey0000000001'
export const LIVE_KEY = 'sk_live_contracttestkey0000000001'
/** The operator's credential of test apps (METRICS_TOKEN): the whole /healthz report is shown only to it. */
export const OPERATOR_TOKEN = 'test-operator-token'
export const operatorAuth = () => ({ authorization: `Bearer ${OPERATOR_TOKEN}` })

/** The operator API's credential of test apps (OPERATOR_TOKEN): tenants are created through it. */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef0123'
export const adminAuth = () => ({ authorization: `Bearer ${ADMIN_TOKEN}` })

/** A tenant created as an operator creates one (POST /admin/v1/tenants): its id and first sandbox and live keys. */
export async function createTenant (app: App, name = 'Other tenant'): Promise<{ id: string, keys: { test: string, live: string } }> {
  const res = await app.server.inject({ method: 'POST', url: '/admin/v1/tenants', headers: adminAuth(), payload: { name } })
  if (res.statusCode !== 200) throw new Error(`creating a tenant: ${res.statusCode} ${res.body}`)
  return res.json()
}

export function tempDir (prefix = 'fds-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix))
}

export function testConfig (env: Record<string, string> = {}): Config {
  return loadConfig({ DATA_DIR: tempDir(), PORT: '0', HOST: '127.0.0.1', BOOTSTRAP_API_KEYS: `${TEST_KEY},${LIVE_KEY}`, RELAY_LINGER_MS: '1', GRPC_PORT: '', METRICS_PORT: '', METRICS_TOKEN: OPERATOR_TOKEN, OPERATOR_TOKEN: ADMIN_TOKEN, TOPOLOGY_THREAD: 'main', STORAGE_RESERVE_MB: '0', ...env })
}

/**
 * A service for a test, every JSON response of its API checked against its OpenAPI document (contract.ts):
 * close() fails with the responses that broke the contract.
 */
export async function startTestApp (env: Record<string, string> = {}, options: AppOptions = {}): Promise<App> {
  const contract = new ContractHarness()
  const app = await startApp(testConfig(env), pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), { listen: false, observeResponse: contract.observe, ...options })
  const close = app.close
  app.close = async () => {
    await close()
    if (contract.violations.length > 0) throw new Error(`responses that break the OpenAPI document:\n${[...new Set(contract.violations)].join('\n')}`)
  }
  return app
}

export const auth = (key = TEST_KEY) => ({ authorization: `Bearer ${key}` })

export async function eventually<T> (probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    await new Promise(resolve => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** The app's whole GET /healthz report, as the operator reads it. */
export async function healthOf (app: App): Promise<Record<string, any>> {
  return (await app.server.inject({ method: 'GET', url: '/healthz', headers: operatorAuth() })).json()
}

/**
 * Until everything sent is published and consumed by every group and nothing is in progress (three looks in a
 * row, 100 ms apart), then two publish intervals more: what a processor emits is appended with its offsets, so
 * once no group lags nothing more is on its way.
 */
export async function settled (app: App, timeoutMs = 60_000): Promise<void> {
  let quiet = 0
  await eventually(async () => {
    const lag = await app.log.lag?.() ?? {}
    const idle = app.relay.pending === 0 && Object.values(lag).every(n => n === 0) && Object.keys(app.health.report().in_progress).length === 0
    quiet = idle ? quiet + 1 : 0
    if (quiet < 3) await new Promise(resolve => setTimeout(resolve, 100))
    return quiet >= 3
  }, timeoutMs, 'the pipeline to settle')
  await new Promise(resolve => setTimeout(resolve, 500))
}
