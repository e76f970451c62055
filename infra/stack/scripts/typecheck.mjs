// Typechecks every workspace with its own tsconfig.json, sequentially (2-core machines), and
// reports all failures at the end rather than stopping at the first.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')
const { references } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'))
const failed = []
for (const { path } of references) {
  const started = Date.now()
  const result = spawnSync('npx', ['tsc', '-p', join(root, path), '--noEmit'], { stdio: 'inherit', cwd: root })
  console.log(`typecheck ${path}: ${result.status === 0 ? 'ok' : 'FAILED'} (${Date.now() - started} ms)`)
  if (result.status !== 0) failed.push(path)
}
if (failed.length > 0) {
  console.error(`typecheck failed in: ${failed.join(', ')}`)
  process.exit(1)
}
