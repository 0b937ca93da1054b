import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { SchemaRegistryClient } from '@confluentinc/schemaregistry'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { buildServer } from './api/server.js'
import { bootstrap, type Identity } from './bootstrap.js'
import type { Config } from './config.js'
import { EmbeddedEventLog } from './eventlog/embedded.js'
import type { EventLog } from './eventlog/event-log.js'
import { KafkaEventLog } from './eventlog/kafka.js'
import { ControlPlane } from './pipeline/control-plane.js'
import { DecisionMaterializer } from './pipeline/materializer.js'
import { OutboxRelay } from './pipeline/relay.js'
import { ScoringService } from './scoring-service.js'
import { TOPOLOGIES } from '../topologies/registry.js'
import { plainProtobufCodec, schemaRegistryCodec, type DecisionCodec } from './serde/decision-codec.js'
import { Outbox } from './state/outbox.js'
import { openStateDb, type StateDb } from './state/state-db.js'
import { VelocityStore } from './state/velocity.js'

export interface App {
  server: FastifyInstance
  state: StateDb
  velocity: VelocityStore
  log: EventLog
  relay: OutboxRelay
  materializer: DecisionMaterializer
  controlPlane: ControlPlane
  identity: Identity
  decisionsTopic: string
  topics: ReturnType<typeof topicNames>
  /** Address the server listens on, when started with listen. */
  address: string | undefined
  close(): Promise<void>
}

export interface AppOptions {
  clock?: () => number
  /** Start the HTTP listener (default true); tests using inject pass false. */
  listen?: boolean
  codec?: DecisionCodec
  /** Run the topologies in this process (default true). */
  topologies?: boolean
}

export async function openEventLog (config: Config, logger: Logger): Promise<EventLog> {
  if (config.transport === 'kafka') return new KafkaEventLog({ brokers: config.kafkaBrokers, clientId: 'fraud-api', logger })
  return EmbeddedEventLog.open(path.join(config.dataDir, 'log'))
}

/** Every topic name, under the configured prefix. */
export function topicNames (config: Config) {
  const p = config.topicPrefix
  return { prefix: p, decisions: `${p}decisions`, events: `${p}events`, rulesets: `${p}rulesets` }
}

export function decisionCodec (config: Config): DecisionCodec {
  if (config.schemaRegistryUrl === undefined) return plainProtobufCodec
  return schemaRegistryCodec(new SchemaRegistryClient({ baseURLs: [config.schemaRegistryUrl] }))
}

/** Wires the whole service of one process: state, event log, relay, materializer and HTTP API. */
export async function startApp (config: Config, logger: Logger, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? Date.now
  mkdirSync(config.dataDir, { recursive: true })
  const state = await openStateDb(path.join(config.dataDir, 'state'))
  const identity = await bootstrap(state, config.bootstrapKeys, clock())
  const log = await openEventLog(config, logger)
  const topics = topicNames(config)
  const decisionsTopic = topics.decisions
  await log.ensureTopics([
    { name: decisionsTopic, partitions: config.decisionsPartitions },
    { name: topics.rulesets, partitions: 3, compacted: true },
    { name: topics.events, partitions: 6 }
  ])
  const codec = options.codec ?? decisionCodec(config)

  const outbox = await Outbox.open(state)
  const velocity = new VelocityStore(state)
  const relay = new OutboxRelay(state, outbox, log, codec, {
    topic: decisionsTopic,
    originId: identity.originId,
    lingerMs: config.relayLingerMs,
    maxBatch: config.relayMaxBatch
  }, logger)
  const controlPlane = new ControlPlane(state, log, topics.rulesets, identity.originId, logger)
  const service = new ScoringService(state, velocity, outbox, identity.originId, () => relay.notify(), controlPlane)
  const materializer = new DecisionMaterializer(state, velocity, log, codec, decisionsTopic, identity.originId, logger, controlPlane)
  relay.start()
  await materializer.start()
  await controlPlane.start()
  // The one-process service runs every topology in process; in Kafka mode each can also run alone.
  const topologies = options.topologies === false ? [] : await Promise.all(Object.values(TOPOLOGIES).map(t => t.start({ config, logger, log, codec, topics })))

  const server = buildServer({
    state,
    service,
    control: controlPlane,
    logger,
    clock,
    health: () => ({ transport: log.kind, outbox_pending: relay.pending, materialized: materializer.applied })
  })
  let address: string | undefined
  if (options.listen !== false) address = await server.listen({ host: config.host, port: config.port })
  else await server.ready()

  let closing: Promise<void> | undefined
  return {
    server, state, velocity, log, relay, materializer, controlPlane, identity, decisionsTopic, topics, address,
    close: () => {
      closing ??= (async () => {
        await server.close()
        await relay.stop()
        await materializer.stop()
        await controlPlane.stop()
        for (const t of topologies) await t.stop()
        await log.close()
        await state.close()
      })()
      return closing
    }
  }
}
