import type { Logger } from 'pino'
import type { Config } from '../src/config.js'
import type { EventLog } from '../src/eventlog/event-log.js'
import type { DecisionCodec } from '../src/serde/decision-codec.js'

/**
 * A topology: a stream processor that runs alone (`node dist/src/main.js topology <name>`, Kafka mode) or
 * inside the one-process service, on either EventLog transport.
 */
export interface TopologyContext {
  config: Config
  logger: Logger
  log: EventLog
  codec: DecisionCodec
  topics: { prefix: string, decisions: string, events: string }
}
export interface RunningTopology { stop(): Promise<void> }
export interface Topology {
  name: string
  description: string
  start(ctx: TopologyContext): Promise<RunningTopology>
}
