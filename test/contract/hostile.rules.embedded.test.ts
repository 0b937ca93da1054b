import { hostileRulesSuite } from './hostile.rules.flow.js'
import { startTestApp } from '../support/app.js'

hostileRulesSuite('embedded', () => startTestApp())
