export { readStackEnv, type StackEnv } from './env.ts'
export { freePort, isPortFree, PortInUseError } from './ports.ts'
export { emulatorEnv, type Stack, startStack } from './stack.ts'
export { startTestStack } from './testing.ts'
