// Imported first by the stack's command line: on another Node major it stops at once with one sentence.
import { nodeVersionProblem } from './node-version.ts'

const problem = nodeVersionProblem()
if (problem !== null) {
  console.error(problem)
  process.exit(1)
}
