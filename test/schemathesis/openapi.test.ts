import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The bounded schemathesis run of run.sh (every operation of /v1/openapi.json, all conformance checks, fixed
 * seed) as part of `npm test`. It needs python3 with venv and PyPI to install its pinned schemathesis.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const python = spawnSync('python3', ['-c', 'import venv, ensurepip'], { stdio: 'ignore' }).status === 0

// Skipped only where python3 (with venv and ensurepip) is missing: the run installs schemathesis into a venv.
describe.skipIf(!python)('schemathesis against the service\'s OpenAPI document', () => {
  it('finds no failing check on any operation', async () => {
    const output: string[] = []
    const status = await new Promise<number | null>((resolve, reject) => {
      const run = spawn('bash', ['test/schemathesis/run.sh'], { cwd: root, env: { ...process.env, NO_COLOR: '1' } })
      run.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()))
      run.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
      run.on('error', reject)
      run.on('close', resolve)
    })
    const text = output.join('')
    const cases = /Test cases:\s*\n\s*(.+)/.exec(text)?.[1] ?? 'no summary'
    console.log(`[schemathesis] ${cases}`)
    if (status !== 0) console.log(text.slice(-20000))
    expect(status).toBe(0)
    expect(cases).toMatch(/\d+ generated, \d+ passed/)
  }, 15 * 60_000)
})
