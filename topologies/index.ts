import type { Logger } from 'pino'
import type { Config } from '../src/config.js'

/**
 * A topology: a stream processor that runs alone (`node dist/src/main.js topology <name>`) or inside the
 * one-process embedded service, on either EventLog transport. Registered here by name.
 */
export interface TopologyContext { config: Config, logger: Logger }
export interface RunningTopology { stop(): Promise<void> }
export interface Topology {
  name: string
  description: string
  start(ctx: TopologyContext): Promise<RunningTopology>
}

/** The decision stream's downstream topologies (case-opener, async-scorer, signal-updater, webhook-delivery, feedback) register here as they are built. */
export const TOPOLOGIES: Record<string, Topology> = {}
