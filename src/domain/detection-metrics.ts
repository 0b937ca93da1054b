/** Detection metrics of the Fraud Detection Handbook, pure. */

export interface Scored { score: number, label: 0 | 1, /** How many transactions this one stands for (a sample's weight); 1 when absent. */ weight?: number }

/** Area under the ROC curve (Mann-Whitney U, ties counted half). NaN when a class is missing. */
export function aucRoc (items: readonly Scored[]): number {
  const sorted = [...items].sort((a, b) => a.score - b.score)
  let rankSumPositives = 0
  let positives = 0
  for (let i = 0; i < sorted.length;) {
    let j = i
    while (j < sorted.length && sorted[j]!.score === sorted[i]!.score) j++
    const averageRank = (i + 1 + j) / 2
    for (let k = i; k < j; k++) if (sorted[k]!.label === 1) { rankSumPositives += averageRank; positives++ }
    i = j
  }
  const negatives = sorted.length - positives
  if (positives === 0 || negatives === 0) return NaN
  return (rankSumPositives - positives * (positives + 1) / 2) / (positives * negatives)
}

/**
 * Average precision: sum over score thresholds of (recall gain) x precision, as scikit-learn computes it, each
 * item counted by its weight (scikit-learn's sample_weight).
 */
export function averagePrecision (items: readonly Scored[]): number {
  const sorted = [...items].sort((a, b) => b.score - a.score)
  const positives = sorted.reduce((n, s) => n + s.label * (s.weight ?? 1), 0)
  if (positives === 0) return NaN
  let truePositives = 0
  let seen = 0
  let ap = 0
  for (let i = 0; i < sorted.length;) {
    let j = i
    let gained = 0
    while (j < sorted.length && sorted[j]!.score === sorted[i]!.score) {
      const w = sorted[j]!.weight ?? 1
      gained += sorted[j]!.label * w
      seen += w
      j++
    }
    truePositives += gained
    ap += (gained / positives) * (truePositives / seen)
    i = j
  }
  return ap
}

/** A scored transaction of a card on a day (the UTC day number: milliseconds since the epoch / 86,400,000). */
export interface CardScored extends Scored { card: string, day: number }

/**
 * Card precision@k per day, as the book computes it (`card_precision_top_k`): on each day, in order, the cards
 * detected on an earlier day are dropped; each remaining card takes its highest score and highest label of
 * the day; the share of compromised cards among the k highest-scored is that day's figure (over k, also when
 * fewer cards were seen). A card counts as detected once it was compromised and among a day's top k: a
 * compromised card the ranking missed stays in the days after.
 */
export function cardPrecisionAtK (items: readonly CardScored[], k = 100): Array<{ day: number, precision: number }> {
  const byDay = new Map<number, CardScored[]>()
  for (const it of items) (byDay.get(it.day) ?? byDay.set(it.day, []).get(it.day)!).push(it)
  const detected = new Set<string>()
  const out: Array<{ day: number, precision: number }> = []
  for (const day of [...byDay.keys()].sort((a, b) => a - b)) {
    const cards = new Map<string, { score: number, label: number }>()
    for (const it of byDay.get(day)!) {
      if (detected.has(it.card)) continue
      const c = cards.get(it.card)
      cards.set(it.card, { score: Math.max(c?.score ?? -Infinity, it.score), label: Math.max(c?.label ?? 0, it.label) })
    }
    const top = [...cards].sort((a, b) => b[1].score - a[1].score).slice(0, k)
    out.push({ day, precision: top.reduce((n, [, c]) => n + c.label, 0) / k })
    for (const [card, c] of top) if (c.label === 1) detected.add(card)
  }
  return out
}
