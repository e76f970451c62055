// `npm run lint` and `make lint`, after Biome: the import boundaries of ADR 0026 (src/boundaries.ts).
// Exit 1 and one line per import that crosses one.
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkBoundaries } from '../src/boundaries.ts'

const problems = checkBoundaries(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'))
for (const problem of problems) console.error(problem)
if (problems.length > 0) {
  console.error(`check-boundaries: ${problems.length} import(s) across a boundary (ADR 0026)`)
  process.exit(1)
}
console.log('check-boundaries: every import stays within its boundaries')
