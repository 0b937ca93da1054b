import Fastify, { type FastifyInstance } from 'fastify'
import type { EventLog } from '../stream/eventlog/event-log.js'
import { sameBytes } from '../domain/same-bytes.js'
import { consumerLag, merged, outboxPending, registry, rocksdb, type MetricsJson } from '../stream/metrics.js'
import type { StateDb } from '../stores/state-db.js'

/** RocksDB properties exported (of the default column family); the binding keeps no statistics, so no hit ratio. */
const ROCKSDB_FIGURES = {
  memtable_bytes: 'rocksdb.cur-size-all-mem-tables',
  pending_compaction_bytes: 'rocksdb.estimate-pending-compaction-bytes',
  block_cache_usage_bytes: 'rocksdb.block-cache-usage',
  block_cache_capacity_bytes: 'rocksdb.block-cache-capacity'
} as const

/** What a process's figures are read from at scrape time. */
export interface FigureSources {
  log: EventLog
  /** Local state databases by name (`state`, and the topologies' own). */
  states: Record<string, StateDb>
  outboxPending?: () => number
}

/** Sets the figures read at scrape time (lag, RocksDB, outbox backlog) in this thread's registry. */
export async function readFigures (sources: FigureSources): Promise<void> {
  if (sources.outboxPending !== undefined) outboxPending.set(sources.outboxPending())
  consumerLag.reset()
  for (const l of await sources.log.partitionLag?.() ?? []) consumerLag.set({ group: l.group, partition: `${l.topic}/${l.partition}` }, l.lag)
  rocksdb.reset()
  for (const [db, state] of Object.entries(sources.states)) {
    for (const [figure, property] of Object.entries(ROCKSDB_FIGURES)) {
      try {
        rocksdb.set({ db, figure }, Number(state.db.getProperty(property)))
      } catch { /* a closed database has no figures */ }
    }
  }
}

/** This thread's figures as JSON, for the thread that serves them. */
export async function figuresJson (sources: FigureSources): Promise<MetricsJson> {
  await readFigures(sources)
  return await registry.getMetricsAsJSON()
}

export interface MetricsListener { address: string, close: () => Promise<void> }

/**
 * GET /metrics and the whole GET /healthz report on a port of its own (METRICS_PORT), not the API's: the API's
 * port may face the internet, this one the cluster's scraper. With METRICS_TOKEN set, only
 * `Authorization: Bearer <token>` is answered.
 */
export async function startMetricsServer (options: { host: string, port: number, token: string | undefined }, sources: FigureSources, others: () => Promise<MetricsJson[]> = async () => [],
  health?: () => Promise<Record<string, unknown>>): Promise<MetricsListener> {
  // A scrape is a read that can be cut: close() ends every connection at once, so a scraper that stalls mid-request
  // or stops reading a long answer cannot hold the process's shutdown (by default fastify closes only idle ones).
  const app: FastifyInstance = Fastify({ logger: false, forceCloseConnections: true })
  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`)
  app.addHook('onRequest', async (request, reply) => {
    if (expected !== undefined && !sameBytes(Buffer.from(request.headers.authorization ?? ''), expected)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized' })
    }
  })
  app.get('/metrics', async (_request, reply) => {
    await readFigures(sources)
    return reply.type(registry.contentType).send(await merged(await others()))
  })
  // The whole health report (the API port's /healthz shows only its status without the token).
  if (health !== undefined) app.get('/healthz', health)
  const address = await app.listen({ host: options.host, port: options.port })
  return { address, close: () => app.close() }
}
