import { averagePrecision } from '../detection-metrics.js'
import { predictLogit, type Forest } from './gbdt.js'
import { round4, scoreOf } from './model.js'

/** A labelled decision as the trainer keeps it: the trees' inputs, its label, and the decisions it stands for. */
export interface LabelledInputs { z: ArrayLike<number>, y: 0 | 1, w: number }

/** A labelled decision with the score the service answered it with (the model's score: rules change the action only). */
export interface ServedInputs extends LabelledInputs { s: number }

/** How a challenger did against the champion on the same matured decisions (average precision, weighted). */
export interface ModelEvaluation { rows: number, frauds: number, champion_ap: number, challenger_ap: number, promoted: boolean }

/** Two scorings' weighted average precision on the same labelled decisions. */
function compareOn<R extends LabelledInputs> (rows: readonly R[], a: (row: R) => number, b: (row: R) => number): { rows: number, frauds: number, a: number, b: number } {
  const scored = (score: (row: R) => number) => rows.map(r => ({ score: score(r), label: r.y, weight: r.w }))
  return { rows: rows.length, frauds: rows.reduce((n, r) => n + r.y, 0), a: averagePrecision(scored(a)), b: averagePrecision(scored(b)) }
}

/** A forest's log-odds of a decision, from its recorded inputs. */
const logitsOf = (forest: Forest) => (row: LabelledInputs) => predictLogit(forest, row.z)

/**
 * The verdict of a comparison: the challenger (b) is promoted when it does at least as well; the newer model wins
 * ties, at the precision the evaluation records (4 decimals), so that a verdict never contradicts its own figures
 * (two forests that both rank a few dozen frauds all but perfectly differ in the fifth decimal by chance).
 */
function verdictOf ({ a, b, ...counts }: ReturnType<typeof compareOn>): ModelEvaluation {
  const championAp = round4(a)
  const challengerAp = round4(b)
  return { ...counts, champion_ap: championAp, challenger_ap: challengerAp, promoted: challengerAp >= championAp }
}

/**
 * Champion and challenger, pure: both score the decisions that matured after the challenger's training horizon
 * (traffic it scored in shadow, from their recorded inputs), and the challenger is promoted when its average
 * precision is at least the champion's: the newer model wins ties.
 */
export function evaluateChallenger (rows: readonly LabelledInputs[], champion: Forest, challenger: Forest): ModelEvaluation {
  return verdictOf(compareOn(rows, logitsOf(champion), logitsOf(challenger)))
}

/**
 * A tenant's first trees against the model that served (the linear one), pure: on the decisions that matured
 * after the trees' training horizon, the scores the service answered them with against the trees' scores as a
 * decision would report them (to 4 decimals, like the served ones). Promoted as a challenger is: at least the
 * served scores' average precision (`champion_ap`).
 */
export function evaluateAgainstServed (rows: readonly ServedInputs[], challenger: Forest): ModelEvaluation {
  const trees = logitsOf(challenger)
  return verdictOf(compareOn(rows, r => r.s, r => scoreOf(trees(r))))
}

/**
 * How far below the champion it replaced a promoted champion's average precision may fall, on the decisions that
 * matured since its promotion, before it rolls back: a margin above the noise of a few dozen frauds, so that a
 * rollback means the newer model is worse, not that the two are equal.
 */
export const QUALITY_ROLLBACK_MARGIN = 0.05

/** A promoted champion's quality on the decisions matured since its promotion, against the champion before it. */
export interface QualityCheck { rows: number, frauds: number, champion_ap: number, previous_ap: number, rollback: boolean }

/**
 * Quality drift, pure: the champion and the one it replaced score the decisions that matured since the promotion,
 * and the champion rolls back when its average precision is more than QUALITY_ROLLBACK_MARGIN below the other's.
 */
export function checkQuality (rows: readonly LabelledInputs[], champion: Forest, previous: Forest): QualityCheck {
  const { a, b, ...counts } = compareOn(rows, logitsOf(champion), logitsOf(previous))
  return { ...counts, champion_ap: round4(a), previous_ap: round4(b), rollback: b - a > QUALITY_ROLLBACK_MARGIN }
}
