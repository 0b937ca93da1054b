import { hostileSuite } from './hostile.flow.js'
import { startTestApp } from '../support/app.js'

hostileSuite('embedded', () => startTestApp({}, { listen: true }))
