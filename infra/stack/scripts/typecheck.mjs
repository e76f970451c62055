// Typechecks every workspace with its own tsconfig.json, sequentially (2-core machines), and
// reports all failures at the end rather than stopping at the first.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')
const { references } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'))
const failed = []
const hasSources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory()
      ? entry.name !== 'node_modules' && entry.name !== 'dist' && hasSources(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name),
  )
for (const { path } of references) {
  if (!hasSources(join(root, path))) {
    console.log(`typecheck ${path}: no TypeScript sources yet`)
    continue
  }
  const started = Date.now()
  const result = spawnSync('npx', ['tsc', '-p', join(root, path), '--noEmit'], { stdio: 'inherit', cwd: root })
  console.log(`typecheck ${path}: ${result.status === 0 ? 'ok' : 'FAILED'} (${Date.now() - started} ms)`)
  if (result.status !== 0) failed.push(path)
}
if (failed.length > 0) {
  console.error(`typecheck failed in: ${failed.join(', ')}`)
  process.exit(1)
}
