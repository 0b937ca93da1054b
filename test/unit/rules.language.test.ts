import { describe, expect, it } from 'vitest'
import { activation, compileRule, RuleSyntaxError, type RuleInput } from '../../src/domain/rules/language.js'

const input = (over: Partial<RuleInput> = {}): RuleInput => ({
  request: { event: 'payment', amount: 250, currency: 'EUR', user_id: 'u1', ip: '203.0.113.9', email: 'a@mailinator.com', geo: { country: 'NG', city: 'Lagos' }, custom: { card_bin: '411111', merchant: { mcc: '7995' } } },
  features: { user_count_1h: 7, device_count_1h: 2, ip_count_1h: 30, email_count_1h: 1, user_count_24h: 12, user_sum_24h: 1800 },
  signals: { sim_swap_confidence: 0.92, ip_reputation_v3: 0.2 },
  lists: { blocked_countries: new Set(['NG', 'KP']), vip_users: new Set(['u9']) },
  ...over
})
const matches = (expression: string, over?: Partial<RuleInput>) => compileRule(expression).evaluate(activation(input(over)))

describe('rule language (CEL)', () => {
  it('supports comparison, boolean, arithmetic, string and membership operators over the request', () => {
    expect(matches('request.amount > 100')).toEqual({ matched: true })
    expect(matches('request.amount > 100 && request.currency == "USD"')).toEqual({ matched: false })
    expect(matches('request.amount * 2.0 >= 500.0 || false')).toEqual({ matched: true })
    expect(matches('request.event in ["payment", "payout"]')).toEqual({ matched: true })
    expect(matches('request.email.endsWith("@mailinator.com")')).toEqual({ matched: true })
    expect(matches('!(request.user_id.startsWith("u"))')).toEqual({ matched: false })
    expect(matches('request.event == "login" ? true : request.amount < 10.0')).toEqual({ matched: false })
  })

  it('reads custom keys, geo and signals, including sim_swap_confidence and ip_reputation_v3', () => {
    expect(matches('custom.card_bin == "411111" && custom.merchant.mcc == "7995"')).toEqual({ matched: true })
    expect(matches('geo.country == "NG"')).toEqual({ matched: true })
    expect(matches('signals.sim_swap_confidence > 0.9 && signals.ip_reputation_v3 < 0.5')).toEqual({ matched: true })
  })

  it('does not match when a read attribute is missing, says why, and has() guards it', () => {
    const missing = matches('request.device_id == "d1"')
    expect(missing.matched).toBe(false)
    expect(missing.error).toMatch(/device_id/)
    expect(matches('has(request.device_id) && request.device_id == "d1"')).toEqual({ matched: false })
    expect(matches('!has(request.device_id)')).toEqual({ matched: true })
    expect(matches('geo.country == "FR"', { request: { event: 'payment' } }).error).toMatch(/country/)
  })

  it('checks tenant lists with in_list', () => {
    expect(matches('in_list("blocked_countries", geo.country)')).toEqual({ matched: true })
    expect(matches('in_list("vip_users", request.user_id)')).toEqual({ matched: false })
    expect(matches('in_list("no_such_list", request.user_id)')).toEqual({ matched: false })
  })

  it('reads velocity aggregates and rejects unsupported ones at compile time', () => {
    expect(matches('velocity("user", "count", "1h") > 5.0')).toEqual({ matched: true })
    expect(matches('velocity("user", "sum", "24h") >= 1800.0 && velocity("ip", "count", "1h") > 20.0')).toEqual({ matched: true })
    expect(() => compileRule('velocity("planet", "count", "1h") > 1.0')).toThrow(/dimension must be one of/)
    expect(() => compileRule('velocity("user", "count", "2y") > 1.0')).toThrow(/window must be one of/)
    expect(() => compileRule('velocity("user", "median", "1h") > 1.0')).toThrow(/aggregate must be/)
    expect(() => compileRule('velocity(request.event, "count", "1h") > 1.0')).toThrow(/string literals/)
    expect(compileRule('velocity("custom.terminal_id", "count", "30d") > 1.0 && velocity_distinct("user", "device", "7d") > 3.0').needs).toEqual([
      { dimension: 'custom.terminal_id', aggregate: 'count', window: '30d' },
      { dimension: 'user', aggregate: 'distinct', of: 'device', window: '7d' }
    ])
    expect(matches('velocity_distinct("user", "device", "24h") >= 4.0', { features: { user_distinct_device_24h: 4 } })).toEqual({ matched: true })
    const noDevice = matches('velocity("device", "count", "1h") > 1.0', { features: {} })
    expect(noDevice.matched).toBe(false)
    expect(noDevice.error).toMatch(/not available/)
  })

  it('reports syntax and type errors with their position', () => {
    try {
      compileRule('request.amount > 100 &&\n  request.currency ==')
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(RuleSyntaxError)
      expect((err as RuleSyntaxError).position.line).toBe(2)
      expect((err as RuleSyntaxError).position.column).toBeGreaterThan(1)
    }
    try {
      compileRule('request.amount > 100 && unknown_var')
      expect.unreachable()
    } catch (err) {
      expect((err as RuleSyntaxError).message).toMatch(/Unknown variable/)
      expect((err as RuleSyntaxError).position).toEqual({ offset: 24, line: 1, column: 25 })
    }
    expect(() => compileRule('1 + 2')).toThrow(/must be a bool/)
  })

  it('is deterministic: the same input gives the same result', () => {
    const rule = compileRule('velocity("user", "count", "1h") > 5.0 && in_list("blocked_countries", geo.country)')
    const results = Array.from({ length: 5 }, () => rule.evaluate(activation(input())))
    expect(new Set(results.map(r => JSON.stringify(r))).size).toBe(1)
  })
})
