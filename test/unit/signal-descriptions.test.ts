import { describe, expect, it } from 'vitest'
import { MODEL_INPUTS } from '../../src/domain/model/inputs.js'
import { describeSignals, SIGNAL_DESCRIPTIONS } from '../../src/domain/signals-described.js'

describe('signal descriptions', () => {
  it('describe every signal the model can report, and no code it cannot', () => {
    const codes = new Set(MODEL_INPUTS.map(i => i.signal))
    expect([...codes].filter(c => SIGNAL_DESCRIPTIONS[c] === undefined)).toEqual([])
    expect(Object.keys(SIGNAL_DESCRIPTIONS).filter(c => !codes.has(c))).toEqual([])
  })

  it('read an unknown code as its words', () => {
    expect(describeSignals(['new_device', 'some_new_code'])).toEqual([
      { code: 'new_device', description: SIGNAL_DESCRIPTIONS.new_device },
      { code: 'some_new_code', description: 'some new code' }
    ])
  })
})
