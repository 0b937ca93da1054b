import type { Topology } from '../stream/topology.js'
import { billing } from './billing.js'
import { caseOpener } from './case-opener.js'
import { ruleTriggered } from './rule-triggered.js'
import { webhookDelivery } from './webhook-delivery.js'
import { feedbackTrainer } from './feedback.js'
import { signalUpdater } from './signal-updater.js'
import { asyncScorer } from './async-scorer.js'

/** Every topology by name. */
export const TOPOLOGIES: Record<string, Topology> = {
  [ruleTriggered.name]: ruleTriggered,
  [caseOpener.name]: caseOpener,
  [webhookDelivery.name]: webhookDelivery,
  [billing.name]: billing,
  [signalUpdater.name]: signalUpdater,
  [feedbackTrainer.name]: feedbackTrainer,
  [asyncScorer.name]: asyncScorer
}
