/** Keys of the local state store: a one-letter tag, then parts separated by NUL (parts never contain NUL). */
const SEP = '\u0000'

export function stateKey (tag: string, ...parts: string[]): Buffer {
  return Buffer.from(tag + SEP + parts.join(SEP))
}

/** [prefix, end) covering every key that starts with these parts. */
export function prefixRange (tag: string, ...parts: string[]): [Buffer, Buffer] {
  const prefix = stateKey(tag, ...parts, '')
  const end = Buffer.from(prefix)
  end[end.length - 1] = 1
  return [prefix, end]
}

/** Tags of the default column. */
export const TAG = {
  transaction: 'x',
  outbox: 'o',
  meta: 'm',
  apiKey: 'k',
  deviceSeen: 'd',
  override: 'v',
  policy: 'p',
  checkpoint: 'c',
  velocity: 'w',
  rulesetVersion: 'r',
  rulesetActive: 'a',
  overrideById: 'i',
  caseRecord: 'e',
  caseByTrace: 't',
  caseGate: 'g',
  label: 'l',
  webhook: 'h',
  deliveryView: 'y',
  deliveryIndex: 'j',
  deliveryOwned: 'q',
  deliveryDue: 'u',
  audit: 'z',
  apiKeyById: 'b',
  idempotency: 'n',
  clientCa: 's'
} as const
