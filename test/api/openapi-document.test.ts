import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { startTestApp, tempDir } from '../support/app.js'

/** The OpenAPI document as a client generator reads it: named operations, typed parameters, a clean lint. */
let app: App
let doc: any
const METHODS = ['get', 'post', 'put', 'patch', 'delete']
const operations = () => Object.entries<Record<string, any>>(doc.paths).flatMap(([url, item]) =>
  Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ key: `${method.toUpperCase()} ${url}`, op })))

beforeAll(async () => {
  app = await startTestApp()
  doc = (await app.server.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
})
afterAll(async () => { await app.close() })

describe('GET /v1/openapi.json', () => {
  it('passes Redocly\u2019s recommended ruleset with no error', async () => {
    const file = path.join(tempDir('fds-openapi-'), 'openapi.json')
    writeFileSync(file, JSON.stringify(doc))
    const bin = path.resolve('node_modules/.bin/redocly')
    // Exit code 1 when there are errors; the JSON report says which either way.
    const run = await promisify(execFile)(bin, ['lint', file, '--format=json'], { env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' } })
      .catch((e: { stdout: string }) => e)
    const report = JSON.parse(run.stdout) as { totals: { errors: number }, problems: Array<{ ruleId: string, severity: string, message: string }> }
    expect(report.problems.filter(p => p.severity === 'error')).toEqual([])
    expect(report.totals.errors).toBe(0)
  })

  it('names every operation once, with a summary and a declared tag', () => {
    const all = operations()
    expect(all.length).toBeGreaterThan(50)
    const tags = new Set(doc.tags.map((t: { name: string }) => t.name))
    for (const { key, op } of all) {
      expect(op.operationId, key).toMatch(/^[a-z][A-Za-z]+$/)
      expect(op.summary, key).toBeTruthy()
      expect(op.tags.every((t: string) => tags.has(t)), key).toBe(true)
    }
    expect(new Set(all.map(o => o.op.operationId)).size).toBe(all.length)
    expect(doc.paths['/v1/score'].post.operationId).toBe('scoreEvent')
  })

  it('types query parameters as the service reads them', () => {
    const param = (url: string, name: string) => doc.paths[url].get.parameters.find((p: { name: string }) => p.name === name).schema
    expect(param('/v1/cases', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 })
    expect(param('/v1/cases', 'min_score')).toMatchObject({ type: 'number', minimum: 0, maximum: 1 })
    expect(param('/v1/overview', 'minutes')).toMatchObject({ type: 'integer' })
    expect(param('/v1/rules/hits', 'hours')).toMatchObject({ type: 'integer' })
  })

  it('documents X-RateLimit-Reset as the unix time the service sends', () => {
    expect(doc.paths['/v1/score'].post.responses['200'].headers['X-RateLimit-Reset'].description).toMatch(/unix time/)
  })
})
