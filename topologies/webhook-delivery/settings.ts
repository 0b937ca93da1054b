import type { TopologySettings } from '../../src/stream/topology.js'

/**
 * The settings the webhook-delivery topology reads: an attempt's timeout, the retry schedule's scale, extra
 * trusted CAs and the egress allow-list. They are fields of TopologySettings
 * (src/stream/topology.ts), filled from the environment by src/app/config.ts (docs/configuration.md).
 */
export type WebhookDeliverySettings = Pick<TopologySettings, 'webhookTimeoutMs' | 'webhookBackoffScale' | 'webhookCaFile' | 'webhookEgressAllow'>
