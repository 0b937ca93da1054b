import type { Topology } from './index.js'
import { billing } from './billing.js'
import { caseOpener } from './case-opener.js'
import { ruleTriggered } from './rule-triggered.js'
import { webhookDelivery } from './webhook-delivery.js'

/** Every topology by name. async-scorer and signal-updater join as they are built. */
export const TOPOLOGIES: Record<string, Topology> = {
  [ruleTriggered.name]: ruleTriggered,
  [caseOpener.name]: caseOpener,
  [webhookDelivery.name]: webhookDelivery,
  [billing.name]: billing
}
