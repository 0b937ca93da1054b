import type { Topology } from './index.js'
import { ruleTriggered } from './rule-triggered.js'

/** Every topology by name. case-opener, async-scorer, signal-updater, webhook-delivery and feedback join as they are built. */
export const TOPOLOGIES: Record<string, Topology> = {
  [ruleTriggered.name]: ruleTriggered
}
