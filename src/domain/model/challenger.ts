import { averagePrecision } from '../detection-metrics.js'
import { predictLogit, type Forest } from './gbdt.js'
import { round4 } from './model.js'

/** A labelled decision as the trainer keeps it: the trees' inputs, its label, and the decisions it stands for. */
export interface LabelledInputs { z: ArrayLike<number>, y: 0 | 1, w: number }

/** How a challenger did against the champion on the same matured decisions (average precision, weighted). */
export interface ModelEvaluation { rows: number, frauds: number, champion_ap: number, challenger_ap: number, promoted: boolean }

/**
 * Champion and challenger, pure: both score the decisions that matured after the challenger's training horizon
 * (traffic it scored in shadow, from their recorded inputs), and the challenger is promoted when its average
 * precision is at least the champion's: the newer model wins ties.
 */
export function evaluateChallenger (rows: readonly LabelledInputs[], champion: Forest, challenger: Forest): ModelEvaluation {
  const scored = (forest: Forest) => rows.map(r => ({ score: predictLogit(forest, r.z), label: r.y, weight: r.w }))
  const championAp = averagePrecision(scored(champion))
  const challengerAp = averagePrecision(scored(challenger))
  return {
    rows: rows.length,
    frauds: rows.reduce((n, r) => n + r.y, 0),
    champion_ap: round4(championAp),
    challenger_ap: round4(challengerAp),
    promoted: challengerAp >= championAp
  }
}
