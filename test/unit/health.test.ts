import { describe, expect, it } from 'vitest'
import { PipelineHealth } from '../../src/stream/health.js'

describe('pipeline health', () => {
  it('reports background work under way by component, its own and that of the health it includes', () => {
    const worker = new PipelineHealth()
    const main = new PipelineHealth()
    main.include(() => worker.report())
    let changes = 0
    main.onChange = () => { changes++ }
    expect(main.report()).toEqual({ status: 'ok', failing: [], dead_lettered: {}, in_progress: {} })
    main.inProgress('feedback.trees', 1)
    worker.inProgress('feedback.trees', 2)
    worker.inProgress('other', 1)
    expect(main.report().in_progress).toEqual({ 'feedback.trees': 3, other: 1 })
    main.inProgress('feedback.trees', 1) // unchanged: no change reported
    expect(changes).toBe(1)
    main.inProgress('feedback.trees', 0)
    worker.inProgress('feedback.trees', 0)
    worker.inProgress('other', 0)
    expect(main.report()).toMatchObject({ status: 'ok', in_progress: {} })
    expect(changes).toBe(2)
  })
})
