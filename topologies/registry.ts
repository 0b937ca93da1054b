import type { Topology } from '../src/stream/topology.js'
import { billing } from './billing/billing.js'
import { caseOpener } from './case-opener/case-opener.js'
import { ruleTriggered } from './rule-triggered/rule-triggered.js'
import { webhookDelivery } from './webhook-delivery/webhook-delivery.js'
import { feedbackTrainer } from './feedback/feedback.js'
import { signalUpdater } from './signal-updater/signal-updater.js'
import { asyncScorer } from './async-scorer/async-scorer.js'

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
