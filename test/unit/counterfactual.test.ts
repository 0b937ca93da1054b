import { describe, expect, it } from 'vitest'
import { counterfactualOf } from '../../src/domain/decision/counterfactual.js'

describe('counterfactual', () => {
  it('is the largest amount up to the requested one that is approved, to the cent below the boundary', () => {
    const c = counterfactualOf({ event: 'payment', amount: 900 }, r => r.amount! <= 212.5)
    expect(c).toMatchObject({ action: 'approve', changes: [{ field: 'amount', from: 900 }] })
    const to = c!.changes[0]!.to
    expect(to).toBeLessThanOrEqual(212.5)
    expect(to).toBeGreaterThan(212.5 - 900 / 2 ** 14 - 0.01)
  })

  it('is none when no lower amount is approved, or the request has no amount', () => {
    expect(counterfactualOf({ event: 'payment', amount: 900 }, () => false)).toBeUndefined()
    expect(counterfactualOf({ event: 'login' }, () => true)).toBeUndefined()
    expect(counterfactualOf({ event: 'payment', amount: 0 }, () => true)).toBeUndefined()
  })
})
