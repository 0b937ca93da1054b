import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import { GroupCommitter, openRocks } from '../src/stores/rocks.js'

/**
 * The durable floor: what any decision API on this stack does for a request before it can answer, and nothing
 * else. Fastify parses the JSON body, a trace id is made, the request is written as a record and an outbox entry
 * in one fsynced RocksDB group commit (the service's own committer and store settings), and a fixed decision is
 * answered once that write is durable. No authentication, features, rules, model or topologies.
 */
const db = await openRocks(mkdtempSync(path.join(tmpdir(), 'fds-floor-')), { memtableMb: 32, cacheMb: 8, dictionary: false })
const committer = new GroupCommitter(db)
let sequence = 0

const app = Fastify()
app.post('/v1/score', async request => {
  const traceId = randomUUID()
  const record = Buffer.from(JSON.stringify({ trace_id: traceId, request: request.body, decision: 'approve', risk_score: 0.1 }))
  await committer.commit([
    { type: 'put', key: Buffer.from(`d:${traceId}`), value: record },
    { type: 'put', key: Buffer.from(`o:${String(++sequence).padStart(16, '0')}`), value: record }
  ])
  return { trace_id: traceId, decision: 'approve', risk_score: 0.1, risk_level: 'low', signals: [], rules: [] }
})
const address = await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write(`{"address":"${address}"}\n`)
