import { TenantDirectory } from '../stores/tenants.js'
import { X509Certificate } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Core } from '../services/core.js'
import type { Logger } from 'pino'
import { buildServer, type ServerDeps } from '../api/server.js'
import { CellForwarder } from '../api/cell-forwarding.js'
import { GrpcCellForwarder } from '../grpc/cell-forwarding.js'
import { DashboardAuth } from '../services/dashboard-auth.js'
import { serveDashboard } from '../dashboard/serve.js'
import { startMetricsServer } from './metrics-server.js'
import { RateLimiter } from '../services/rate-limit.js'
import { startGrpc } from '../grpc/scorer-server.js'
import { AuditLog } from '../stream/audit-log.js'
import { compactedTopics, ensureServiceTopics, topicNames } from '../stream/topics.js'
import { declaredStores, startTopologies, type TopologyContext } from '../stream/topology.js'
import { TenantEraser } from '../stream/tenant-erasure.js'
import { bootstrap, type Identity } from './bootstrap.js'
import { requireCellUrls, type Config } from './config.js'
import { EmbeddedEventLog } from '../stream/eventlog/embedded.js'
import { EMBEDDED_PROBE_KEY } from '../stream/eventlog/embedded-format.js'
import type { EventLog } from '../stream/eventlog/event-log.js'
import { KafkaEventLog } from '../stream/eventlog/kafka.js'
import { ControlPlane } from '../stream/control-plane.js'
import { OutboxRelay } from '../stream/relay.js'
import { PipelineHealth } from '../stream/health.js'
import { ScoringService } from '../services/scoring-service.js'
import { TOPOLOGIES } from '../../topologies/registry.js'
import { decodingOnce, plainProtobufCodec, schemaRegistryCodec, type DecisionCodec } from '../stream/decision-codec.js'
import { Outbox } from '../stores/outbox.js'
import { PresentKeys } from '../stores/present-keys.js'
import { TAG } from '../stores/keys.js'
import { openStateDb } from '../stores/state-db.js'
import { VelocityStore } from '../stores/velocity/index.js'
import { IpReputationIndex } from '../stores/signals.js'
import { ModelRegistry } from '../stream/views/model-registry.js'
import { openViews, type Views } from '../stream/views.js'
import { decisionsView } from '../stream/decisions-view.js'
import { ProcessorRunner, type ProcessorRuntime } from '../stream/processor.js'
import type { TransactionRecord } from '../domain/records/decisions.js'
import { startTopologyThread } from './topology-thread.js'
import { topologyThreadFor } from './topology-placement.js'
import { egressPolicy } from '../domain/webhooks/egress-policy.js'

export interface App extends ProcessCore {
  server: FastifyInstance
  /** The mutual-TLS listener, when MTLS_PORT is set. */
  mtlsServer: FastifyInstance | undefined
  mtlsAddress: string | undefined
  /** Port of the gRPC service, when enabled. */
  grpcPort: number | undefined
  relay: OutboxRelay
  outbox: Outbox
  /** The decisions view: every other instance's decisions applied to this one's local state. */
  materializer: ProcessorRunner<unknown>
  decisionsTopic: string
  /** Address the server listens on, when started with listen. */
  address: string | undefined
  dashboard: DashboardAuth
  /** Address of the metrics listener (METRICS_PORT), when it listens. */
  metricsAddress: string | undefined
  close(): Promise<void>
}

export interface AppOptions {
  clock?: () => number
  /** Start the HTTP listener (default true); tests using inject pass false. */
  listen?: boolean
  codec?: DecisionCodec
  /** Run the topologies in this process (default true). */
  topologies?: boolean
  /** Sees every JSON response of the API before serialization (the tests' contract harness). */
  observeResponse?: ServerDeps['observeResponse']
}

export async function openEventLog (config: Config, logger: Logger): Promise<EventLog> {
  if (config.transport === 'kafka') return new KafkaEventLog({ brokers: config.kafkaBrokers, clientId: 'fraud-api', logger })
  return EmbeddedEventLog.open(path.join(config.dataDir, 'log'))
}

export async function decisionCodec (config: Config): Promise<DecisionCodec> {
  if (config.schemaRegistryUrl === undefined) return plainProtobufCodec
  const { SchemaRegistryClient } = await import('@confluentinc/schemaregistry')
  return await schemaRegistryCodec(new SchemaRegistryClient({ baseURLs: [config.schemaRegistryUrl] }))
}

/** A process's core as the composition root holds it: the shared Core plus its configuration and lifecycle. */
export interface ProcessCore extends Core {
  /** What the processors of this process share (state, log, health, dead-letter topic). */
  runtime: ProcessorRuntime
  config: Config
  identity: Identity
  /** The control-plane views this process runs (those started): what readiness waits for. */
  startedViews: Array<{ catchUp: (timeoutMs?: number) => Promise<void> }>
  /** Runs the registered topologies in this process; returns a stop function. */
  startTopologies(names?: string[]): Promise<() => Promise<void>>
  closeCore(): Promise<void>
}

/**
 * `log`: the event log to use instead of opening one (the topology worker's). `views`: the views to run
 * (default all); the others exist but stay empty, for a process whose code reads only those (the worker).
 */
export interface CoreOptions extends Pick<AppOptions, 'clock' | 'codec'> {
  log?: EventLog
  views?: ReadonlyArray<keyof Views>
  /** The storage reserve of the process that keeps it (the worker's parent): this one only deletes it when its disk fills. */
  reserveFile?: string
}

export async function startCore (config: Config, logger: Logger, options: CoreOptions = {}): Promise<ProcessCore> {
  const clock = options.clock ?? Date.now
  mkdirSync(config.dataDir, { recursive: true })
  const reserveFile = options.reserveFile ?? path.join(config.dataDir, 'storage-reserve')
  const reserve = config.storageReserveMb <= 0 ? undefined : { file: reserveFile, bytes: config.storageReserveMb * 1024 * 1024, keep: options.reserveFile === undefined }
  // STORAGE_RESERVE_MB=0: a reserve kept by an earlier start gives its room back.
  if (reserve === undefined && options.reserveFile === undefined) rmSync(reserveFile, { force: true })
  const state = await openStateDb(path.join(config.dataDir, 'state'), { reserve, logger })
  const identity = await bootstrap(state, config.bootstrapKeys, clock(), config.defaultTenantId)
  const topics = topicNames(config)
  const health = new PipelineHealth()
  const log = options.log ?? await openEventLog(config, logger)
  if (log instanceof EmbeddedEventLog) state.storage.watch('log', log.database, EMBEDDED_PROBE_KEY)
  state.storage.start()
  const tenantDirectory = await TenantDirectory.load(state)
  const runtime: ProcessorRuntime = { state, log, health, logger, deadLetterTopic: topics.deadLetters, tenants: tenantDirectory, compactedTopics: compactedTopics(config) }
  await ensureServiceTopics(log, config)
  const codec = decodingOnce(options.codec ?? await decisionCodec(config))
  const origin = identity.originId
  const controlPlane = new ControlPlane(runtime, topics.rulesets, origin)
  const velocity = await VelocityStore.open(state, { flushIntervalMs: config.velocityFlushMs, maxCached: config.velocityCacheRecords })
  const reputation = await IpReputationIndex.load(state)
  const modelRegistry = await ModelRegistry.load(state, { logger, health })
  const eraser = new TenantEraser(state, declaredStores(TOPOLOGIES), velocity, logger.child({ component: 'erasure' }), 2 * config.velocityFlushMs + 1000)
  const views = openViews(runtime, topics, origin, { velocity, reputation, modelRegistry, tenantDirectory, erase: tenant => eraser.erase(tenant) })
  const audit = new AuditLog(log, topics.audit, clock)
  const mtlsServerFingerprint = config.mtlsCertFile === undefined ? undefined : new X509Certificate(readFileSync(config.mtlsCertFile)).fingerprint256
  await controlPlane.start()
  const startedViews = Object.entries(views).filter(([name]) => options.views === undefined || options.views.includes(name as keyof Views)).map(([, v]) => v)
  // Tenants first, caught up: a deleted tenant is known before any other view could apply its records.
  await views.tenants.start()
  await views.tenants.catchUp(60_000)
  for (const v of startedViews) if (v !== views.tenants) await v.start()
  for (const tenant of tenantDirectory.deleted()) eraser.erase(tenant)
  const core: ProcessCore = {
    runtime, config, logger, clock, state, identity, log, topics, codec, health, controlPlane, ...views, velocity,
    startedViews, modelRegistry, reputation, tenantDirectory, eraser, mtlsServerFingerprint, audit, webhookEgress: egressPolicy(config.webhookEgressAllow),
    async startTopologies (names = Object.keys(TOPOLOGIES)) {
      const ctx: TopologyContext = { ...runtime, config, codec, topics, control: controlPlane, cases: views.cases, webhooks: views.webhooks, audit, clock, models: modelRegistry }
      const running = await startTopologies(TOPOLOGIES, names, ctx)
      return async () => { await running.stop() }
    },
    async closeCore () {
      await Promise.all([...Object.values(views).map(v => v.stop()), controlPlane.stop()])
      await eraser.stop()
      // A store that cannot write (a full disk) still closes: the velocity journal has the increments not flushed.
      await velocity.flush().catch((err: unknown) => logger.child({ component: 'velocity' }).warn({ err }, 'velocity records not flushed at shutdown; the journal re-applies them at the next start'))
      await log.close()
      await state.close()
    }
  }
  return core
}

/** Wires the whole service of one process: core, relay, decisions materializer, topologies and HTTP API. */
export async function startApp (config: Config, logger: Logger, options: AppOptions = {}): Promise<App> {
  requireCellUrls(config)
  mkdirSync(config.dataDir, { recursive: true })
  const placement = topologyThreadFor(config)
  const core = await startCore(config, logger, options)
  const { state, log, topics, codec, identity, controlPlane, velocity } = core
  const decisionsTopic = topics.decisions
  const outbox = await Outbox.open(state)
  const brokerLimit = await log.maxAppendBytes?.(decisionsTopic)
  const relay = new OutboxRelay(state, outbox, log, codec, {
    topic: decisionsTopic,
    deadLetterTopic: topics.deadLetters,
    originId: identity.originId,
    lingerMs: config.relayLingerMs,
    maxBatch: config.relayMaxBatch,
    maxBatchBytes: Math.min(config.relayMaxBatchBytes, brokerLimit === undefined ? Infinity : Math.floor(brokerLimit * 0.9))
  }, core.health, logger)
  const subjects = await PresentKeys.open(state, [TAG.override, TAG.caseGate])
  const service = new ScoringService(state, velocity, outbox, identity.originId, (records, traceparents) => relay.notify(records, traceparents), controlPlane, { models: core.modelRegistry, reputation: core.reputation, subjects },
    config.recordedTime === 'event_time' ? eventMs => eventMs : () => core.clock(), config.ruleBudgetUnits)
  const materializer = new ProcessorRunner(core.runtime, decisionsView({ velocity, codec, topic: decisionsTopic, originId: identity.originId, rulesets: controlPlane }))
  relay.start()
  await materializer.start()
  // The one-process service runs every topology in process; in Kafka mode each can also run alone
  // (TOPOLOGIES=none here, `main.js topology <name>` elsewhere).
  const inProcess = options.topologies === false ? [] : config.inProcessTopologies === 'all' ? undefined : config.inProcessTopologies
  const thread = inProcess?.length !== 0 && placement === 'worker' ? await startTopologyThread(config, inProcess, log, core.health, logger) : undefined
  const stopTopologies = thread?.stop ?? await core.startTopologies(inProcess)

  // Ready once every control-plane view has applied what its topic held at start (then /readyz watches lag).
  let caughtUp = false
  let starting = true
  void (async () => {
    while (starting) {
      try {
        await Promise.all([controlPlane.catchUp(60_000), ...core.startedViews.map(v => v.catchUp(60_000))])
        caughtUp = true
        return
      } catch { /* not within a minute: try again */ }
    }
  })()
  const lagOf = async (): Promise<Record<string, number>> => ({ ...await log.lag?.(), ...await thread?.lag() })
  const dashboard = new DashboardAuth(core, config.dashboardSession)
  const deps = {
    core,
    service,
    dashboard,
    limiter: new RateLimiter(config.rateLimitPerSecond, config.rateLimitBurst, { rate: config.rateLimitTenantPerSecond, burst: config.rateLimitTenantBurst }),
    connections: config.connections,
    observeResponse: options.observeResponse,
    operatorToken: config.metrics.token,
    adminToken: config.operatorToken,
    cells: config.cells > 1 ? new CellForwarder(config.cell, config.cellUrls, core.tenantDirectory) : undefined,
    cellCount: config.cells,
    lag: lagOf,
    health: async () => ({ ...core.health.report(), transport: log.kind, outbox_pending: relay.pending, materialized: materializer.processed, lag: await lagOf() }),
    ready: async () => {
      const lag = await lagOf()
      const reasons = [
        ...state.storage.reasons(),
        ...(caughtUp ? [] : ['the control-plane views are catching up']),
        ...Object.entries(lag).filter(([, n]) => n > config.readyMaxLag).map(([group, n]) => `${group} is ${n} records behind (READY_MAX_LAG ${config.readyMaxLag})`)
      ]
      return { reasons, lag }
    }
  }
  const server = await buildServer(deps)
  await serveDashboard(server)
  let address: string | undefined
  if (options.listen !== false) address = await server.listen({ host: config.host, port: config.port })
  else await server.ready()
  const metrics = config.metrics.port === undefined || options.listen === false
    ? undefined
    : await startMetricsServer({ host: config.host, port: config.metrics.port, token: config.metrics.token }, { log, states: { state }, outboxPending: () => relay.pending }, async () => await thread?.metrics() ?? [], deps.health)
  const grpc = config.grpcPort === undefined ? undefined : await startGrpc(core, service, deps.limiter, config.host, config.grpcPort, config.cells > 1 ? new GrpcCellForwarder(config.cell, config.cellGrpcUrls) : undefined)
  let mtlsServer: FastifyInstance | undefined
  let mtlsAddress: string | undefined
  if (config.mtlsPort !== undefined) {
    if (config.mtlsCertFile === undefined || config.mtlsKeyFile === undefined) throw new Error('MTLS_PORT needs MTLS_CERT_FILE and MTLS_KEY_FILE')
    // Every client is asked for a certificate; which CA must have signed it depends on the tenant (checked per request).
    const tls = { cert: readFileSync(config.mtlsCertFile), key: readFileSync(config.mtlsKeyFile), requestCert: true, rejectUnauthorized: false }
    mtlsServer = await buildServer(deps, { https: tls, mutualTls: true })
    mtlsAddress = await mtlsServer.listen({ host: config.host, port: config.mtlsPort })
  }

  let closing: Promise<void> | undefined
  return {
    ...core, server, mtlsServer, mtlsAddress, grpcPort: grpc?.port, relay, outbox, materializer, decisionsTopic, address, dashboard, metricsAddress: metrics?.address,
    close: () => {
      starting = false
      closing ??= (async () => {
        const step = (what: string) => logger.info({ step: what }, 'shutdown')
        await server.close()
        await metrics?.close()
        step('http closed')
        await mtlsServer?.close()
        await grpc?.close()
        await deps.cells?.close()
        step('grpc closed')
        await relay.stop()
        step('relay stopped')
        await Promise.all([materializer.stop(), stopTopologies()])
        step('consumers stopped')
        await core.closeCore()
        step('core closed')
      })()
      return closing
    }
  }
}
