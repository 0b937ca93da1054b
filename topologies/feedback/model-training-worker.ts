import { parentPort, workerData } from 'node:worker_threads'
import { train, type TrainOptions, type TrainingSet } from '../../src/domain/model/gbdt.js'

/** The worker of trainInWorker (model-training.ts): one training, its forest posted back. */
const { set, options } = workerData as { set: TrainingSet, options: TrainOptions }
parentPort!.postMessage(train(set, options))
