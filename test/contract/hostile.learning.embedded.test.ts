import { hostileLearningSuite, LEARNING_ENV } from './hostile.learning.flow.js'
import { startTestApp } from '../support/app.js'

hostileLearningSuite('embedded', clock => startTestApp(LEARNING_ENV, { clock }))
