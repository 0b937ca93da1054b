import { hostileModelInputsSuite } from './hostile.model-inputs.flow.js'
import { startTestApp } from '../support/app.js'

hostileModelInputsSuite('embedded', () => startTestApp())
