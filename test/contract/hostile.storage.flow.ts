import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { injectWriteFaults } from '../../src/stores/rocks.js'
import { auth, eventually, operatorAuth, tempDir } from '../support/app.js'
import { readDecisionStream } from '../support/stream.js'

/** A write failing as RocksDB reports a full disk (the binding's error, with its code). */
export const enospc = (): Error => Object.assign(new Error('IO error: No space left on device: While appending to file: 000009.log: No space left on device'), { code: 'LEVEL_IO_ERROR' })

/** What a test sees of the app it drives. */
function client (app: () => App) {
  const inject = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    app().server.inject({ method, url, headers: { ...auth(), ...headers }, ...(payload === undefined ? {} : { payload }) })
  return {
    inject,
    score: (payload: object, headers?: Record<string, string>) => inject('POST', '/v1/score', payload, headers),
    health: async () => (await inject('GET', '/healthz', undefined, operatorAuth())).json(),
    ready: () => inject('GET', '/readyz', undefined, operatorAuth()),
    caseOf: async (traceId: string) => (await inject('GET', `/v1/cases?trace_id=${traceId}`)).json().data[0] as { trace_id: string } | undefined,
    transaction: (traceId: string) => inject('GET', `/v1/transactions/${traceId}`)
  }
}

type Client = ReturnType<typeof client>
type Answer = Awaited<ReturnType<Client['inject']>>

/** A refused write: 503 storage_unavailable, type api_error, with Retry-After. */
function expectStorageUnavailable (res: Answer, what: string): void {
  expect(res.statusCode, what).toBe(503)
  expect(res.headers['retry-after'], what).toBe('5')
  expect(res.json().error, what).toMatchObject({ type: 'api_error', code: 'storage_unavailable', trace_id: res.headers['x-trace-id'] })
}

/**
 * After the fault: ready, scoring, cases of flagged decisions answered before and after opened within 10 s
 * (the relay and every topology resumed), nothing recorded of the refused requests (no decision, no velocity
 * count), nothing dead-lettered, and every answered decision on the stream once.
 */
async function expectResumed (c: Client, app: App, fault: { user: string, answered: string[], refused: string[], flaggedBefore: string, countedBefore: number }, readyWithinMs = 10_000): Promise<void> {
  const cleared = Date.now()
  await eventually(async () => (await c.ready()).statusCode === 200 || undefined, readyWithinMs, '/readyz 200 after the fault')
  const after = await c.score({ event: 'payment', amount: 25_000, user_id: `${fault.user}-after` })
  expect(after.statusCode).toBe(200)
  expect(after.json().action).toBe('flag')
  fault.answered.push(after.json().trace_id)
  for (const traceId of [fault.flaggedBefore, after.json().trace_id]) {
    const opened = await eventually(() => c.caseOf(traceId), Math.max(1000, 10_000 - (Date.now() - cleared)), `the case of ${traceId} within 10 s of the fault clearing`)
    expect(opened.trace_id).toBe(traceId)
  }
  for (const traceId of fault.refused) expect((await c.transaction(traceId)).statusCode, `refused ${traceId} recorded nothing`).toBe(404)
  // The velocity of the user counts the answered decisions only: the refused ones left no increment behind.
  const probe = await c.score({ event: 'payment', amount: 30, user_id: fault.user })
  expect(probe.statusCode).toBe(200)
  fault.answered.push(probe.json().trace_id)
  expect((await c.transaction(probe.json().trace_id)).json().evaluation.features.user_count_1h).toBe(fault.countedBefore)
  const health = await eventually(async () => { const h = await c.health(); return h.status === 'ok' ? h : undefined }, 10_000, 'healthz ok')
  expect(health.dead_lettered).toEqual({})
  const stream = await readDecisionStream(app.log, app.topics.decisions, `storage-check-${Date.now()}`, fault.answered)
  expect(stream.missing).toEqual([])
  expect(stream.raw, 'every answered decision once on the stream').toBe(stream.byTrace.size)
}

/**
 * Storage faults injected at the RocksDB write boundary (every write of the process fails as a full disk
 * does), on one transport: what the client sees, readiness, and the pipeline resuming by itself.
 */
export function storageFaultSuite (transport: string, start: () => Promise<App>): void {
  describe(`storage faults (injected ENOSPC): ${transport}`, () => {
    let app: App
    const c = client(() => app)
    beforeAll(async () => { app = await start() })
    afterAll(async () => {
      injectWriteFaults(undefined)
      await app?.close()
    })

    it('answers 503 storage_unavailable and records nothing while writes fail; /readyz 503; resumes within 10 s, nothing lost or dead-lettered', async () => {
      const user = `storage-${transport}-${Date.now()}`
      const first = await c.score({ event: 'payment', amount: 30, user_id: user })
      const before = await c.score({ event: 'payment', amount: 25_000, user_id: user })
      expect(before.json().action).toBe('flag')
      // The fault (every write of the state store fails) starts as the flagged decision is on its way: the relay
      // publishes it and cannot remove it from the outbox, the topologies consume it and cannot commit.
      injectWriteFaults(db => db === app.state.db ? enospc() : undefined)
      const refused: string[] = []
      try {
        for (let i = 0; i < 3; i++) {
          const res = await c.score({ event: 'payment', amount: 40, user_id: user })
          expectStorageUnavailable(res, 'score')
          refused.push(res.json().error.trace_id)
        }
        expectStorageUnavailable(await c.inject('POST', '/v1/score/batch', { events: [{ event: 'payment', amount: 40, user_id: user }, { event: 'login', user_id: user }] }), 'batch')
        expectStorageUnavailable(await c.inject('POST', '/v1/overrides', { subject: 'user_id', value: user, action: 'reject', reason: 'during the fault' }), 'override (control plane)')
        const keyed = await c.score({ event: 'payment', amount: 40, user_id: user }, { 'idempotency-key': `storage-${user}` })
        expectStorageUnavailable(keyed, 'score with an Idempotency-Key')
        refused.push(keyed.json().error.trace_id)
        const ready = await c.ready()
        expect(ready.statusCode).toBe(503)
        expect(ready.json().reasons.join(' ')).toMatch(/cannot write \(no space left on device\)/)
        expect(ready.json().reasons.join(' '), 'no file path').not.toMatch(/\//)
        // The pipeline meets the fault (the relay and the consumers fail and say so), and goes on retrying, past
        // the retries after which a record failing for its own sake is dead-lettered.
        const failing = async () => ((await c.health()).failing as Array<{ component: string, attempts: number }>)
        await eventually(async () => { const f = await failing(); return f.some(x => x.component === 'outbox-relay') && f.some(x => x.component.startsWith('consumer:')) ? f : undefined }, 5000, 'the relay and a consumer failing')
        await eventually(async () => (await failing()).some(x => x.component.startsWith('consumer:') && x.attempts > 5) || undefined, 10_000, 'a consumer retrying past the dead-letter bound')
      } finally {
        injectWriteFaults(undefined)
      }
      // Requests that write are refused until a write is known to pass again (the probe, at most a second).
      await eventually(async () => (await c.ready()).statusCode === 200 || undefined, 10_000, '/readyz 200 after the fault')
      // The same Idempotency-Key is decided afresh: the refused request stored no answer.
      const again = await c.score({ event: 'payment', amount: 40, user_id: user }, { 'idempotency-key': `storage-${user}` })
      expect(again.statusCode).toBe(200)
      expect(again.headers['idempotent-replayed']).toBeUndefined()
      await expectResumed(c, app, { user, answered: [first.json().trace_id, before.json().trace_id, again.json().trace_id], refused, flaggedBefore: before.json().trace_id, countedBefore: 3 })
    })

    it('dead-letters nothing for a fault and still dead-letters a record nothing can decode', async () => {
      await app.log.append(app.topics.decisions, [{ key: 'garbage', value: Buffer.from([0xff, 0xff, 0xff, 0xff]), headers: { trace_id: 'trc_garbage_storage' } }])
      const counted = await eventually(async () => {
        const dead = (await c.health()).dead_lettered as Record<string, number>
        return Object.keys(dead).some(k => k.startsWith('consumer:materializer-')) ? dead : undefined
      }, 20_000, 'the undecodable record dead-lettered')
      expect(Object.keys(counted).every(k => k.startsWith('consumer:'))).toBe(true)
    })
  })
}

/** Whether this process may mount a tmpfs (CI runs as root); the reason when not. */
export function tmpfsOrSkip (): string | undefined {
  const dir = tempDir('fds-tmpfs-probe-')
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' })
    execFileSync('umount', [dir], { stdio: 'pipe' })
    return undefined
  } catch (err) {
    return `cannot mount a tmpfs here (${String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim().split('\n')[0]}); the real disk-full case needs root`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Writes files of `chunk` bytes into `dir` until the disk refuses; returns their paths. */
function fillDisk (dir: string): string[] {
  const files: string[] = []
  for (const chunk of [256 * 1024, 4096]) {
    for (;;) {
      const file = path.join(dir, `fill-${files.length}`)
      try {
        writeFileSync(file, Buffer.alloc(chunk, 1))
        files.push(file)
      } catch {
        rmSync(file, { force: true })
        break
      }
    }
  }
  return files
}

/**
 * The disk really full: DATA_DIR on a 64 MB tmpfs, filled by another writer under load (issue 33), then
 * freed. `start(dataDir)` gives an app on that directory (embedded: the state and the log both on it).
 */
export function diskFullSuite (start: (dataDir: string) => Promise<App>): void {
  const skip = tmpfsOrSkip()
  if (skip !== undefined) console.warn(`[skip] disk full on a tmpfs: ${skip}`)
  describe.skipIf(skip !== undefined)('storage faults (a 64 MB tmpfs filled up)', () => {
    let app: App
    let mountPoint: string
    const c = client(() => app)
    beforeAll(async () => {
      mountPoint = tempDir('fds-tmpfs-')
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountPoint])
      mkdirSync(path.join(mountPoint, 'data'))
      app = await start(path.join(mountPoint, 'data'))
    })
    afterAll(async () => {
      await app?.close().catch(() => {})
      if (mountPoint !== undefined) {
        try { execFileSync('umount', [mountPoint]) } catch { execFileSync('umount', ['-l', mountPoint]) }
        rmSync(mountPoint, { recursive: true, force: true })
      }
    })

    it('answers 503 storage_unavailable (never 500) while the disk is full; /readyz 503; resumes within 10 s of space freed', async () => {
      const user = `disk-full-${Date.now()}`
      const answered: string[] = []
      const first = await c.score({ event: 'payment', amount: 30, user_id: user })
      const before = await c.score({ event: 'payment', amount: 25_000, user_id: user })
      expect(before.json().action).toBe('flag')
      answered.push(first.json().trace_id, before.json().trace_id)
      const filler = fillDisk(mountPoint)
      // Decisions of 16 KB each, answered while RocksDB's preallocated log still has room, then refused.
      const refused: string[] = []
      const statuses = new Map<number, number>()
      const deadline = Date.now() + 30_000
      while (refused.length < 3 && Date.now() < deadline) {
        const res = await c.score({ event: 'payment', amount: 25_000, user_id: `${user}-load-${answered.length}`, note: 'x'.repeat(8000), memo: 'y'.repeat(8000) })
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
        if (res.statusCode === 200) answered.push(res.json().trace_id)
        else {
          expectStorageUnavailable(res, 'score on a full disk')
          refused.push(res.json().error.trace_id)
        }
      }
      expect([...statuses.keys()].filter(s => s !== 200 && s !== 503), `statuses ${JSON.stringify([...statuses])}`).toEqual([])
      expect(refused.length).toBe(3)
      const refusedOfUser = await c.score({ event: 'payment', amount: 40, user_id: user })
      expectStorageUnavailable(refusedOfUser, 'score of the user on a full disk')
      refused.push(refusedOfUser.json().error.trace_id)
      const ready = await c.ready()
      expect(ready.statusCode).toBe(503)
      expect(ready.json().reasons.join(' ')).toMatch(/no space left on device|storage reserve/)
      // The disk still full, the stores recover into the room of the storage reserve: the relay and the
      // topologies go on, and the flagged decisions answered last open their cases.
      const last = answered[answered.length - 1]!
      expect((await c.transaction(last)).json().decision.action).toBe('flag')
      await eventually(() => c.caseOf(last), 20_000, 'the case of the last decision answered, the disk still full')
      await eventually(async () => (await c.health()).outbox_pending === 0 || undefined, 10_000, 'the outbox published, the disk still full')
      expect((await c.ready()).statusCode, 'requests that write are refused until the disk has room').toBe(503)
      for (const file of filler) rmSync(file)
      // A real full disk: RocksDB itself retries its recovery every 5 s, so readiness may take a second retry on a
      // loaded machine (the injected fault above holds the service's own part to 10 s).
      await expectResumed(c, app, { user, answered, refused, flaggedBefore: before.json().trace_id, countedBefore: 2 }, 20_000)
    })
  })
}
