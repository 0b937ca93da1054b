/**
 * Values linked to one value, each with the event time it was last seen: a distinct count within a velocity
 * record (record.ts) and a node of the async-scorer's link graph. As stored: a format byte, a u32
 * count, then per value a float64 time, a u32 byte length and the value's UTF-8 bytes. Records of the first
 * format were JSON objects (first byte `{`): read as such and written back in this one.
 */
const FORMAT = 1
const JSON_OBJECT = 0x7b
const PER_VALUE = 8 + 4

export type Links = Map<string, number>

/** Bytes of the links without the format byte: a u32 count, then per value its time, length and bytes. */
export function linksSize (links: Links): number {
  let size = 4
  for (const value of links.keys()) size += PER_VALUE + Buffer.byteLength(value)
  return size
}

/** Writes the links (without the format byte) at `at`; returns the offset after them. */
export function writeLinks (links: Links, out: Buffer, at: number): number {
  at = out.writeUInt32LE(links.size, at)
  for (const [value, seen] of links) {
    at = out.writeDoubleLE(seen, at)
    const length = out.write(value, at + 4)
    at = out.writeUInt32LE(length, at) + length
  }
  return at
}

/** Reads links written by writeLinks at `at`; returns them and the offset after them. */
export function readLinks (raw: Buffer, at: number): [Links, number] {
  const links: Links = new Map()
  const n = raw.readUInt32LE(at)
  at += 4
  for (let k = 0; k < n; k++) {
    const seen = raw.readDoubleLE(at)
    const length = raw.readUInt32LE(at + 8)
    at += PER_VALUE
    links.set(raw.toString('utf8', at, at + length), seen)
    at += length
  }
  return [links, at]
}

export function encodeLinks (links: Links): Buffer {
  const out = Buffer.allocUnsafe(1 + linksSize(links))
  out[0] = FORMAT
  writeLinks(links, out, 1)
  return out
}

export function decodeLinks (raw: Buffer | undefined): Links {
  if (raw === undefined) return new Map()
  if (raw[0] === JSON_OBJECT) return new Map(Object.entries(JSON.parse(raw.toString()) as Record<string, number>))
  if (raw[0] !== FORMAT) throw new Error(`distinct-count record of an unknown format ${raw[0]}`)
  return readLinks(raw, 1)[0]
}

/**
 * Records that `value` was seen at `seenMs` (a later time already known stays) and keeps the `max` most
 * recently seen values: links grow by one value at a time, so at most one goes. The one way links change, with
 * takeBack: what it evicts depends only on the values and times it was given, not on their order (among values
 * of one time, the map's order decides).
 */
export function seen (links: Links, value: string, seenMs: number, max: number): void {
  const before = links.get(value)
  if (before !== undefined && before >= seenMs) return
  links.set(value, seenMs)
  const q = oldestFirst.get(links)
  if (q !== undefined && seenMs < q.bound) keepAmongOldest(links, q, value, seenMs)
  if (links.size > max) links.delete(oldest(links))
}

/** A value's time set back, or the value removed, by an undo: what was known of the oldest is forgotten. */
export function takeBack (links: Links, value: string, before: number | undefined): void {
  if (before === undefined) links.delete(value)
  else links.set(value, before)
  oldestFirst.delete(links)
}

/**
 * The OLDEST_KEPT oldest values of a links map when it was last scanned, oldest first (values of one time in
 * the map's order), and `bound`: every value not among them was seen at `bound` or later. A value of this list
 * seen again since no longer matches its time here and is passed over (a later place holds it if it is still
 * below `bound`). A hot value's links are full and evict one value for each new one: a scan of all of them
 * each time was 7 % of a materialized decision's CPU (CPU profile of bench:scale-out's catch-up); one scan now
 * serves OLDEST_KEPT.
 */
interface Oldest { values: string[], times: number[], next: number, bound: number }
const OLDEST_KEPT = 32
const oldestFirst = new WeakMap<Links, Oldest>()

/**
 * A sight below the list's bound (a late event, or an update of a value in the list) joins the list in time
 * order; the value's earlier place in it, if any, no longer matches its time and is passed over. A list grown
 * past 4 x OLDEST_KEPT that way is dropped, scanned again at the next eviction.
 */
function keepAmongOldest (links: Links, q: Oldest, value: string, time: number): void {
  if (q.values.length - q.next >= 4 * OLDEST_KEPT) { oldestFirst.delete(links); return }
  let lo = q.next
  let hi = q.times.length
  while (lo < hi) { const mid = (lo + hi) >> 1; if (q.times[mid]! <= time) lo = mid + 1; else hi = mid }
  q.values.splice(lo, 0, value)
  q.times.splice(lo, 0, time)
}

function oldest (links: Links): string {
  let q = oldestFirst.get(links)
  while (true) {
    if (q === undefined || q.next === q.values.length) oldestFirst.set(links, q = scanOldest(links))
    const value = q.values[q.next]!
    const time = q.times[q.next++]!
    if (links.get(value) === time) return value
  }
}

// forEach, not for-of: a hot value holds hundreds of links; iterating entries made an array per entry (a fifth
// of what a request allocated, measured with the sampling heap profiler).
let scanning: Oldest = { values: [], times: [], next: 0, bound: Infinity }
function scanOldest (links: Links): Oldest {
  scanning = { values: [], times: [], next: 0, bound: Infinity }
  links.forEach(addIfOlder)
  const q = scanning
  q.bound = q.values.length < OLDEST_KEPT ? Infinity : q.times[q.times.length - 1]!
  return q
}
function addIfOlder (time: number, value: string): void {
  const { values, times } = scanning
  if (values.length === OLDEST_KEPT && time >= times[OLDEST_KEPT - 1]!) return
  let i = values.length === OLDEST_KEPT ? OLDEST_KEPT - 1 : values.length
  if (values.length === OLDEST_KEPT) { values.pop(); times.pop() }
  // after the values of the same time: among equal times, the map's order
  while (i > 0 && times[i - 1]! > time) i--
  values.splice(i, 0, value)
  times.splice(i, 0, time)
}
