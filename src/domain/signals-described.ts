/**
 * What each signal code of a decision means, in the words an analyst reads on a case (docs/scoring.md lists
 * the codes). A signal is reported when its inputs raised the score; every code the model can report has a
 * description (test/unit/signal-descriptions.test.ts checks it against the model's inputs).
 */
export const SIGNAL_DESCRIPTIONS: Readonly<Record<string, string>> = {
  amount_anomaly: 'The amount is far above this customer\u2019s usual amounts for this kind of event.',
  card_risk: 'A large share of this card\u2019s recent transactions were reported as fraud.',
  card_testing: 'Many cards on one device, or many or failed payments of one card in a short time, as when stolen cards are tested.',
  consistent_geo: 'The customer has always been seen in this country.',
  credential_stuffing_ip: 'The address or its network is failing logins across many accounts.',
  device_risk: 'A large share of this device\u2019s recent transactions were reported as fraud.',
  device_sharing: 'The device is used by more accounts than a household would.',
  disposable_email: 'The email address belongs to a disposable-mail provider.',
  email_risk: 'A large share of this email address\u2019s recent transactions were reported as fraud.',
  event_kind: 'The kind of event itself carries risk in this model.',
  failed_attempts: 'Recent failed attempts by this account or device.',
  free_email: 'The email address is at a free-mail provider.',
  geo_mismatch: 'The countries of the event, the IP address and the billing address disagree.',
  high_amount: 'The amount is large.',
  identity_sharing: 'The email address is shared with other accounts.',
  impossible_travel: 'The customer was seen too far away too recently to have travelled here.',
  ip_fan_out: 'The IP address is used by many accounts.',
  ip_reputation_v3: 'The IP address has a poor reputation (a signal the tenant sent).',
  ip_risk: 'A large share of this IP address\u2019s recent transactions were reported as fraud.',
  ip_velocity: 'Many events from this IP address or its network recently.',
  known_device: 'The device is known for this customer.',
  linked_to_fraud: 'Fraud was reported recently on this account, its device, its network, its email domain or the accounts paying it.',
  machine_email: 'The email address looks machine-generated (long, digit-heavy or random).',
  many_beneficiaries: 'Payouts to many different beneficiaries recently.',
  many_cards: 'Many different cards used by this account recently.',
  many_devices: 'Many different devices used by this account recently.',
  many_ips: 'Many different IP addresses used by this account recently.',
  merchant_risk: 'The merchant has had fraud reported on its recent transactions.',
  merchant_velocity: 'Unusually many transactions at this merchant recently.',
  mule_ring: 'Money flows in from many different senders, as into a mule account.',
  new_account: 'The account was created recently.',
  new_beneficiary: 'The beneficiary has not been paid by this account before.',
  new_card: 'The card is new for this account.',
  new_device: 'The device has not been seen for this customer before.',
  new_ip: 'The IP address has not been seen for this customer before.',
  new_user: 'The customer\u2019s first transaction.',
  recent_account_change: 'The account\u2019s details changed recently, or it used several email addresses.',
  sim_swap: 'The phone\u2019s SIM card was swapped recently (a signal the tenant sent).',
  sim_swap_confidence: 'A recent SIM swap, with the confidence the tenant sent.',
  unusual_time: 'The time of day or week carries risk in this model.',
  velocity: 'Many events by this customer, device or email address in the last hours or days.'
}

export interface DescribedSignal { code: string, description: string }

/** A decision's signal codes with their descriptions (a code without one reads as itself). */
export const describeSignals = (codes: readonly string[]): DescribedSignal[] =>
  codes.map(code => ({ code, description: SIGNAL_DESCRIPTIONS[code] ?? code.replaceAll('_', ' ') }))
