import { WINDOWS } from '../../domain/features/velocity-spec.js'

/**
 * The counters of one dimension value (record.ts): per resolution (minute, hour, day), the time units that
 * hold something, in order, each as four numbers in one flat array: unit (since the epoch), count, amount sum,
 * squared amount sum. Most values are seen a few times: a handful of slots, not 60 + 24 + 32 dense ones.
 *
 * A resolution keeps the units within twice its longest window of its latest unit: an increment older than
 * that is not counted, a read does not see such units, and they are dropped when the record is written. So
 * what a read returns depends only on the increments made, in their order, never on when records were written;
 * and a read up to one window older than the latest event is exact.
 */
export const RESOLUTIONS = ['m', 'h', 'd'] as const
export type Resolution = typeof RESOLUTIONS[number]
export const UNIT_MS: Record<Resolution, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 }
export type Slots = Record<Resolution, number[]>

const STRIDE = 4
export const FIELD = { count: 1, sum: 2, sumsq: 3 } as const

const longest = (res: Resolution) => Math.max(...Object.values(WINDOWS).filter(w => w.res === res).map(w => w.units))
const KEPT_UNITS: Record<Resolution, number> = { m: 2 * longest('m'), h: 2 * longest('h'), d: 2 * longest('d') }

export const unitOf = (ms: number, res: Resolution): number => Math.floor(ms / UNIT_MS[res])
export const emptySlots = (): Slots => ({ m: [], h: [], d: [] })

/** Units at or below this are out of reach (the latest unit held, minus what is kept). */
const floorOf = (s: number[], res: Resolution) => s.length === 0 ? -Infinity : s[s.length - STRIDE]! - KEPT_UNITS[res]

/** Adds to the unit's slot (made when missing); false when the unit is out of reach (nothing changed). */
export function addAt (s: number[], res: Resolution, unit: number, count: number, sum: number, sumsq: number): boolean {
  if (unit <= floorOf(s, res)) return false
  let i = s.length - STRIDE
  while (i >= 0 && s[i]! > unit) i -= STRIDE
  if (i >= 0 && s[i] === unit) {
    s[i + 1]! += count
    s[i + 2]! += sum
    s[i + 3]! += sumsq
  } else {
    s.splice(i + STRIDE, 0, unit, count, sum, sumsq)
  }
  return true
}

/** Takes back one addAt that returned true; a slot whose count returns to zero goes (as if never made). */
export function subtractAt (s: number[], unit: number, count: number, sum: number, sumsq: number): void {
  let i = s.length - STRIDE
  while (i >= 0 && s[i]! !== unit) i -= STRIDE
  if (i < 0) return
  s[i + 1]! -= count
  s[i + 2]! -= sum
  s[i + 3]! -= sumsq
  if (s[i + 1] === 0) s.splice(i, STRIDE)
}

/** The sum of one field over the units [from, to]. */
export function sumSlots (s: number[], res: Resolution, from: number, to: number, field: number): number {
  const floor = floorOf(s, res)
  let total = 0
  for (let i = s.length - STRIDE; i >= 0; i -= STRIDE) {
    const unit = s[i]!
    if (unit > to) continue
    if (unit < from || unit <= floor) break
    total += s[i + field]!
  }
  return total
}

/**
 * As stored: per resolution a u16 slot count and per slot a u32 unit and three float64 (count, sum, squared
 * sum); units out of reach are left out. record.ts puts a format byte before them.
 */
const SLOT_BYTES = 4 + 3 * 8

/** Index of each resolution's first slot within reach: from there on slotsSize counts and writeSlots writes. */
export const firstsInReach = (slots: Slots): number[] => RESOLUTIONS.map(res => {
  const s = slots[res]
  const floor = floorOf(s, res)
  let first = 0
  while (first < s.length && s[first]! <= floor) first += STRIDE
  return first
})

export function slotsSize (slots: Slots, firsts: number[]): number {
  return RESOLUTIONS.reduce((size, res, r) => size + 2 + (slots[res].length - firsts[r]!) / STRIDE * SLOT_BYTES, 0)
}

/** Writes the slots from `firsts` on at `at`; returns the offset after them. */
export function writeSlots (slots: Slots, firsts: number[], out: Buffer, at: number): number {
  RESOLUTIONS.forEach((res, r) => {
    const s = slots[res]
    at = out.writeUInt16LE((s.length - firsts[r]!) / STRIDE, at)
    for (let i = firsts[r]!; i < s.length; i += STRIDE) {
      at = out.writeUInt32LE(s[i]!, at)
      at = out.writeDoubleLE(s[i + 1]!, at)
      at = out.writeDoubleLE(s[i + 2]!, at)
      at = out.writeDoubleLE(s[i + 3]!, at)
    }
  })
  return at
}

/** Reads slots written at `at`; returns them and the offset after them. */
export function readSlots (raw: Buffer, at: number): [Slots, number] {
  const slots = emptySlots()
  for (const res of RESOLUTIONS) {
    const n = raw.readUInt16LE(at)
    at += 2
    if (n === 0) continue
    // Sized once: an array grown by push keeps up to half again its length as spare capacity, and a cached
    // record holds its arrays for as long as it stays in the cache.
    const s = slots[res] = new Array<number>(n * STRIDE)
    for (let k = 0, j = 0; k < n; k++, at += SLOT_BYTES) {
      s[j++] = raw.readUInt32LE(at)
      s[j++] = raw.readDoubleLE(at + 4)
      s[j++] = raw.readDoubleLE(at + 12)
      s[j++] = raw.readDoubleLE(at + 20)
    }
  }
  return [slots, at]
}
