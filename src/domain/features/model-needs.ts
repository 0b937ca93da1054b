import type { VelocityNeed, Window } from './velocity-spec.js'

const counts = (dimension: string, ...windows: Window[]): VelocityNeed[] => windows.map(window => ({ dimension, aggregate: 'count', window }))
const sums = (dimension: string, ...windows: Window[]): VelocityNeed[] => windows.map(window => ({ dimension, aggregate: 'sum', window }))

/**
 * Velocity read for every request, whatever the rules ask: what the Stage 2 features are computed from.
 * `merchant` is custom.merchant_id or custom.terminal_id; `label.merchant` counts the merchant's transactions
 * later labelled fraudulent, at the transaction's event time (see src/stores/label-counters.ts), and so do the other
 * `label.` dimensions for theirs.
 */
export const MODEL_NEEDS: readonly VelocityNeed[] = [
  ...counts('user', '1h', '24h', '7d', '30d'),
  ...sums('user', '24h', '7d', '30d'),
  { dimension: 'user', aggregate: 'sumsq', window: '30d' },
  // the amount profile: the user's events of the request's kind (a payment against the user's payments)
  ...counts('user_event', '30d'),
  ...sums('user_event', '30d'),
  { dimension: 'user_event', aggregate: 'sumsq', window: '30d' },
  { dimension: 'user', aggregate: 'distinct', of: 'device', window: '30d' },
  { dimension: 'user', aggregate: 'distinct', of: 'country', window: '30d' },
  ...counts('device', '1h', '24h', '30d'),
  { dimension: 'device', aggregate: 'distinct', of: 'user', window: '30d' },
  ...counts('ip', '1h', '24h', '30d'),
  { dimension: 'ip', aggregate: 'distinct', of: 'user', window: '24h' },
  ...counts('email', '1h', '30d'),
  { dimension: 'email', aggregate: 'distinct', of: 'user', window: '30d' },
  ...counts('merchant', '24h', '7d', '10d', '14d', '30d'),
  ...counts('label.merchant', '7d', '10d', '14d', '30d'),
  ...counts('card', '30d'),
  ...counts('label.card', '30d'),
  ...counts('label.device', '30d'),
  ...counts('label.ip', '30d'),
  ...counts('label.email', '30d'),
  // account security: failed attempts per account, device, address and network (credential stuffing sprays
  // one network over many accounts), the network's traffic and accounts, the account's addresses, and recent
  // changes to the account (a takeover changes the email, then cashes out)
  ...counts('failed.user', '1h', '24h'),
  ...counts('failed.device', '24h'),
  ...counts('failed.ip', '1h', '24h'),
  ...counts('failed.ip24', '1h', '24h'),
  ...counts('ip24', '1h', '24h'),
  { dimension: 'ip24', aggregate: 'distinct', of: 'user', window: '24h' },
  { dimension: 'user', aggregate: 'distinct', of: 'ip', window: '30d' },
  ...counts('update.user', '24h', '7d'),
  // payouts: the account's cards and beneficiaries, and what other accounts paid it (a mule's inflow, from many)
  { dimension: 'user', aggregate: 'distinct', of: 'card', window: '30d' },
  { dimension: 'user', aggregate: 'distinct', of: 'merchant', window: '30d' },
  { dimension: 'merchant', aggregate: 'distinct', of: 'user', window: '30d' },
  ...counts('inflow', '24h', '7d'),
  ...sums('inflow', '24h', '7d'),
  { dimension: 'inflow', aggregate: 'distinct', of: 'user', window: '30d' },
  // card testing: many cards tried on one device, a card's own bursts and declines
  { dimension: 'device', aggregate: 'distinct', of: 'card', window: '24h' },
  ...counts('card', '1h', '24h'),
  ...counts('failed.card', '24h'),
  // a takeover's new email
  { dimension: 'user', aggregate: 'distinct', of: 'email', window: '30d' },
  // onboarding: the email's domain across accounts
  ...counts('email_domain', '24h', '30d'),
  { dimension: 'email_domain', aggregate: 'distinct', of: 'user', window: '30d' },
  // frauds already known near the event: the account's own, its network's, its inflow's (labels along the links)
  ...counts('label.user', '30d'),
  ...counts('label.ip24', '30d'),
  ...counts('label.inflow', '30d'),
  // and the email domain's (a ring's accounts share a throwaway domain)
  ...counts('label.email_domain', '30d')
]
