import type { Topology } from './index.js'
import { caseOpener } from './case-opener.js'
import { ruleTriggered } from './rule-triggered.js'

/** Every topology by name. async-scorer, signal-updater and webhook-delivery join as they are built. */
export const TOPOLOGIES: Record<string, Topology> = {
  [ruleTriggered.name]: ruleTriggered,
  [caseOpener.name]: caseOpener
}
