import net from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { prefixRange, TAG } from '../../src/stores/keys.js'
import { scan } from '../../src/stores/rocks.js'
import { adminAuth, eventually, startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import * as grpc from '@grpc/grpc-js'
import { create } from '@bufbuild/protobuf'
import { scorerDefinition } from '../../src/grpc/scorer-server.js'
import { ScoreRequestSchema } from '../../src/gen/fraud/v1/score_pb.js'

const brokers = await kafkaBrokersOrSkip('two cells of two instances on Kafka')

/**
 * `n` consecutive ports free now, below the kernel's ephemeral range (32768 and up on Linux): no connection this
 * machine opens is given one of them, so they stay free until the instances bind them.
 */
async function reservedPorts (n: number): Promise<number[]> {
  const free = (port: number) => new Promise<boolean>(resolve => {
    const server = net.createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
  for (;;) {
    const base = 21_000 + Math.floor(Math.random() * 10_000)
    const ports = Array.from({ length: n }, (_, i) => base + i)
    if ((await Promise.all(ports.map(free))).every(Boolean)) return ports
  }
}

/** The keys (as text) of this instance's state under one tag for one tenant. */
async function keysOf (app: App, tag: string, tenant: string): Promise<number> {
  const [gte, lt] = prefixRange(tag, tenant)
  let n = 0
  for await (const _ of scan(app.state.db, gte, lt)) n++
  return n
}

describe.skipIf(brokers === undefined)('two cells of two instances on real Kafka', () => {
  const apps: App[] = []
  afterAll(async () => { await Promise.all(apps.map(a => a.close())) })

  it('answers every tenant at every instance, materializes each cell only in its cell, and suspends and erases across cells', async () => {
    const ports = await reservedPorts(8)
    const url = (i: number) => `http://127.0.0.1:${ports[i]}`
    const grpcAt = (i: number) => `127.0.0.1:${ports[4 + i]}`
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('cells')}.`, CELLS: '2', TOPOLOGIES: 'none' }
    // Instances 0 and 1 are cell 0, instances 2 and 3 cell 1; each reaches the other cell's two.
    const cellOf = (i: number) => (i < 2 ? 0 : 1)
    for (let i = 0; i < 4; i++) {
      const other = cellOf(i) === 0 ? `1=${url(2)}|${url(3)}` : `0=${url(0)}|${url(1)}`
      const otherGrpc = cellOf(i) === 0 ? `1=${grpcAt(2)}|${grpcAt(3)}` : `0=${grpcAt(0)}|${grpcAt(1)}`
      apps.push(await startTestApp({ ...env, CELL: String(cellOf(i)), CELL_URLS: other, CELL_GRPC_URLS: otherGrpc, PORT: String(ports[i]), GRPC_PORT: String(ports[4 + i]) }, { listen: true }))
    }
    for (const [i, app] of apps.entries()) expect(app.materializer.processor.topics).toEqual([cellOf(i) === 0 ? `${env.TOPIC_PREFIX}decisions` : `${env.TOPIC_PREFIX}decisions.cell-1`])

    const admin = (method: string, path: string, body?: object) => fetch(url(0) + path, { method, headers: { ...adminAuth(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async r => ({ status: r.status, json: await r.json() }))
    const a = (await admin('POST', '/admin/v1/tenants', { name: 'Cell zero', cell: 0 })).json
    const b = (await admin('POST', '/admin/v1/tenants', { name: 'Cell one', cell: 1 })).json
    expect([a.cell, b.cell]).toEqual([0, 1])
    // Every instance knows both (the tenants topic is every instance's) before any request.
    await eventually(() => apps.every(app => app.tenantDirectory.cellOf(b.id) === 1) || undefined, 30_000, 'the tenants on every instance')
    const call = (i: number, key: string, method: string, path: string, body?: object) =>
      fetch(url(i) + path, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) })
        .then(async r => ({ status: r.status, headers: r.headers, json: await r.json() }))

    // Every instance answers both tenants, and each reads its own writes back through the instance it wrote through.
    const traces: Record<string, string[]> = { [a.id]: [], [b.id]: [] }
    for (let i = 0; i < 4; i++) {
      for (const t of [a, b]) {
        const scored = await call(i, t.keys.test, 'POST', '/v1/score', { event: 'payment', amount: 40 + i, currency: 'EUR', user_id: `u-${t.id}`, device_id: `d-${i}` })
        expect(scored.status, JSON.stringify(scored.json)).toBe(200)
        expect(scored.headers.get('x-trace-id')).toBe(scored.json.trace_id)
        traces[t.id]!.push(scored.json.trace_id)
        const read = await call(i, t.keys.test, 'GET', `/v1/transactions/${scored.json.trace_id}`)
        expect(read.status).toBe(200)
        expect(read.json.request.amount).toBe(40 + i)
      }
    }
    // A listing through instance 0 is forwarded to one instance of cell 1, which holds the decisions the other
    // instance of cell 1 made once it has materialized them: within a cell, reads of another instance's writes
    // are eventual (docs/architecture.md#cells).
    const listedTraces = async () => ((await call(0, b.keys.test, 'GET', '/v1/transactions?limit=10')).json.data as Array<{ trace_id: string }>).map(d => d.trace_id).sort()
    await eventually(async () => (await listedTraces()).length === 4 || undefined, 30_000, 'cell 1 materializing its other instance\'s decisions')
    expect(await listedTraces()).toEqual([...traces[b.id]!].sort())

    // Each cell's instances materialize their cell's tenants' decisions, and never the other cell's.
    for (const [i, app] of apps.entries()) {
      const [mine, theirs] = cellOf(i) === 0 ? [a.id, b.id] : [b.id, a.id]
      await eventually(async () => await keysOf(app, TAG.transaction, mine) === 4 || undefined, 30_000, `instance ${i} materialized its cell`)
      expect(await keysOf(app, TAG.transaction, theirs)).toBe(0)
    }

    // gRPC too: a call for the other cell's tenant is made again there, and its answer returned as it came.
    const Client = grpc.makeGenericClientConstructor(scorerDefinition as unknown as grpc.ServiceDefinition, 'Scorer')
    const client = new Client(grpcAt(0), grpc.credentials.createInsecure()) as unknown as Record<string, (r: unknown, m: grpc.Metadata, cb: (e: grpc.ServiceError | null, v: { traceId: string, action: string }) => void) => void>
    const metadata = new grpc.Metadata()
    metadata.set('authorization', `Bearer ${b.keys.test}`)
    const viaGrpc = await new Promise<{ traceId: string, action: string }>((resolve, reject) => client.score!(create(ScoreRequestSchema, { event: 'payment', amount: 77, userId: `u-${b.id}` }), metadata, (e, v) => e === null ? resolve(v) : reject(e)))
    ;(client as unknown as grpc.Client).close()
    await eventually(async () => (await call(2, b.keys.test, 'GET', `/v1/transactions/${viaGrpc.traceId}`)).status === 200 || (await call(3, b.keys.test, 'GET', `/v1/transactions/${viaGrpc.traceId}`)).status === 200 || undefined, 10_000, 'the forwarded gRPC decision recorded in cell 1')
    expect(await keysOf(apps[0]!, TAG.transaction, b.id)).toBe(0)

    // A new tenant goes to the cell with the fewest (the lowest of equals); a forwarded request is never forwarded on.
    expect((await admin('POST', '/admin/v1/tenants', { name: 'Placed' })).json.cell).toBe(0)
    await eventually(() => apps[0]!.tenantDirectory.emptiestCell(2) === 1 || undefined, 10_000, 'the placed tenant counted')
    expect((await admin('POST', '/admin/v1/tenants', { name: 'Placed too' })).json.cell).toBe(1)
    const looped = await fetch(url(2) + '/v1/transactions?limit=1', { headers: { authorization: `Bearer ${a.keys.test}`, 'fds-forwarded-by-cell': '0' } })
    expect(looped.status).toBe(503)
    expect((await looped.json()).error.code).toBe('cell_unavailable')

    // Suspension and erasure, each asked of one instance, hold at every instance of both cells.
    expect((await admin('POST', `/admin/v1/tenants/${b.id}/suspend`)).status).toBe(200)
    await eventually(async () => {
      const answers = await Promise.all(apps.map((_, i) => call(i, b.keys.test, 'POST', '/v1/score', { event: 'login', user_id: 'u' })))
      return answers.every(r => r.status === 403 && r.json.error.code === 'tenant_suspended') || undefined
    }, 30_000, 'suspended everywhere')
    expect((await call(2, a.keys.test, 'POST', '/v1/score', { event: 'login', user_id: 'u' })).status).toBe(200)
    expect((await admin('DELETE', `/admin/v1/tenants/${b.id}`)).json).toMatchObject({ deleted: true })
    await eventually(async () => {
      const answers = await Promise.all(apps.map((_, i) => call(i, b.keys.test, 'GET', '/v1/transactions?limit=1')))
      return answers.every(r => r.status === 401) || undefined
    }, 30_000, 'the deleted tenant refused everywhere')
    for (const app of apps.slice(2)) {
      await eventually(() => app.tenantDirectory.isErased(b.id) || undefined, 30_000, 'the deletion applied')
      await app.eraser.idle()
      expect(await keysOf(app, TAG.transaction, b.id)).toBe(0)
      expect(await keysOf(app, TAG.apiKeyById, b.id)).toBe(0)
    }
    expect((await call(3, a.keys.test, 'GET', `/v1/transactions/${traces[a.id]![3]}`)).status).toBe(200)
  })
})
