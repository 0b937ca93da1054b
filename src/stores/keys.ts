/** Keys of the local state store: a one-letter tag, then parts separated by NUL (parts never contain NUL). */
const SEP = '\u0000'

export function stateKey (tag: string, ...parts: string[]): Buffer {
  return Buffer.from(stateId(tag, ...parts))
}

/** The text of a state key (its bytes are this text in UTF-8): for in-memory lookups that need no bytes. */
export function stateId (tag: string, ...parts: string[]): string {
  return tag + SEP + parts.join(SEP)
}

/** [prefix, end) covering every key that starts with these parts. */
export function prefixRange (tag: string, ...parts: string[]): [Buffer, Buffer] {
  return textRange(stateId(tag, ...parts, ''))
}

/** [prefix, end) covering every key whose text starts with `prefix` (a store's prefix, stores/named-store.ts). */
export function textRange (prefix: string): [Buffer, Buffer] {
  const gte = Buffer.from(prefix)
  const lt = Buffer.from(gte)
  lt[lt.length - 1]! += 1
  return [gte, lt]
}

/** The part of a [gte, lt) range after `key` (exclusive), or all of it: Stripe-style `starting_after` paging. */
export function rangeAfter ([gte, lt]: [Buffer, Buffer], key: Buffer | undefined): [Buffer, Buffer] {
  return [key === undefined ? gte : Buffer.concat([key, Buffer.from([0])]), lt]
}

/** Tags of the default column. */
export const TAG = {
  transaction: 'x',
  /** A decision under each of its subjects' values: searches by user, email, device, IP or card. */
  transactionBySubject: 'X',
  outbox: 'o',
  meta: 'm',
  apiKey: 'k',
  deviceSeen: 'd',
  override: 'v',
  policy: 'p',
  checkpoint: 'c',
  velocity: 'w',
  velocityJournal: 'J',
  rulesetVersion: 'r',
  rulesetActive: 'a',
  listItem: 'I',
  overrideById: 'i',
  caseRecord: 'e',
  caseByTrace: 't',
  caseGate: 'g',
  /** The open and in-review cases (the queue), by id, with their status, assignee and opening time. */
  caseUnclosed: 'O',
  /** A case under each of its subjects' values: the cases of a user, an email, a device, an IP or a card. */
  caseBySubject: 'C',
  label: 'l',
  webhook: 'h',
  deliveryView: 'y',
  deliveryIndex: 'j',
  deliveryOwned: 'q',
  deliveryDue: 'u',
  audit: 'z',
  apiKeyById: 'b',
  dashboardUser: 'U',
  dashboardUserByEmail: 'E',
  dashboardSession: 'S',
  idempotency: 'n',
  clientCa: 's',
  signal: 'f',
  lastLocation: 'L',
  model: 'M',
  learner: 'N',
  linkGraph: 'G',
  asyncCheck: 'A',
  tenant: 'T',
  /** Each tenant's record keys on the compacted topics (erasure's tombstones). */
  compactedKey: 'K'
} as const
