import { execFile } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../../src/app/app.js'
import { startTestApp, tempDir, TEST_KEY } from '../../../test/support/app.js'
import { issue, makeCa } from '../../../test/support/certs.js'

/**
 * The Python client (clients/python), tested by its own pytest suite against a live service started here, with a
 * real HTTPS receiver of its own (certificate from a CA the service trusts through WEBHOOK_CA_FILE). The client
 * and its test and generation tools are installed in clients/python/.venv from PyPI (reused while there).
 */
const run = promisify(execFile)
const HERE = path.resolve('clients/python')
const VENV = path.join(HERE, '.venv')
const PYTHON = path.join(VENV, 'bin', 'python')
let app: App
let limited: App
let receiverTls: { cert: string, key: string }

beforeAll(async () => {
  if (!existsSync(path.join(VENV, 'bin', 'datamodel-codegen'))) {
    await run('python3', ['-m', 'venv', VENV])
    await run(path.join(VENV, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-e', `${HERE}[test,generate]`])
  }
  const ca = await makeCa('Python receiver CA')
  const dir = tempDir('fds-py-')
  const caFile = path.join(dir, 'ca.pem')
  writeFileSync(caFile, ca.cert)
  const leaf = await issue(ca, 'localhost', 'server')
  receiverTls = { cert: path.join(dir, 'receiver.pem'), key: path.join(dir, 'receiver.key') }
  writeFileSync(receiverTls.cert, leaf.cert)
  writeFileSync(receiverTls.key, leaf.key)
  app = await startTestApp({ WEBHOOK_CA_FILE: caFile, WEBHOOK_EGRESS_ALLOW: 'localhost', WEBHOOK_BACKOFF_SCALE: '0.0005' }, { listen: true })
  limited = await startTestApp({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' }, { listen: true })
}, 300_000)
afterAll(async () => {
  await app?.close()
  await limited?.close()
})

describe('the Python client', () => {
  it('passes its pytest suite against the live service', async () => {
    const env = { ...process.env, FDS_BASE_URL: app.address!, FDS_KEY: TEST_KEY, FDS_LIMITED_URL: limited.address!, FDS_RECEIVER_CERT: receiverTls.cert, FDS_RECEIVER_KEY: receiverTls.key }
    const result = await run(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', path.join(HERE, 'tests')], { env, cwd: HERE }).catch((e: { stdout: string, stderr: string }) => e)
    console.log(result.stdout)
    expect(result.stdout + result.stderr).toMatch(/\d+ passed/)
    expect(result.stdout).not.toMatch(/failed|error/i)
  }, 120_000)

  it('has the types datamodel-code-generator makes of clients/openapi.json today', async () => {
    const fresh = path.join(tempDir('fds-py-models-'), 'models.py')
    await run(path.join(HERE, 'generate.sh'), [fresh])
    expect(readFileSync(fresh, 'utf8') === readFileSync(path.join(HERE, 'src', 'fraud_decision', 'models.py'), 'utf8'), 'run npm run clients:generate').toBe(true)
  }, 120_000)
})
