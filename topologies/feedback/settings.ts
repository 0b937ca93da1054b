import type { TopologySettings } from '../../src/stream/topology.js'

/**
 * The settings the feedback topology reads: label maturity, late events, how often models are published and
 * the trees' training (TreeTrainingSettings). They are fields of TopologySettings
 * (src/stream/topology.ts), filled from the environment by src/app/config.ts (docs/configuration.md).
 */
export type FeedbackSettings = Pick<TopologySettings, 'labelMaturityDays' | 'lateEventHours' | 'modelPublishIntervalMs' | 'modelTrees'>
