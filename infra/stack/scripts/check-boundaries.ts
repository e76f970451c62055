// `npm run lint` (and `make lint`) after Biome: the import boundaries of ADR 0026. Each relative
// import is resolved to the file it names, which Biome's noRestrictedImports cannot do (it matches
// the import text), so "another feature" and "another workspace" are decided by where files are:
// - a relative import must stay inside its workspace: workspaces import each other by package name
//   (`@bosted/stack/ports`), and declare each other in their package.json;
// - web/src/features/<a> imports nothing of web/src/features/<b> (the route composes features);
// - web/src/app/routes/<a> imports nothing of web/src/app/routes/<b> (shared pieces live in a
//   feature, web/src/lib or the domain).
// Import cycles are Biome's (suspicious/noImportCycles, type imports included). Exit 1 on a violation.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/
const SKIP = new Set(['node_modules', 'dist', '.data', '.tools', 'test-results', 'playwright-report'])

type Workspace = { dir: string; name: string; declared: Set<string> }

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
}

const workspaces: Workspace[] = (readJson(join(ROOT, 'package.json')).workspaces as string[]).map((dir) => {
  const pkg = readJson(join(ROOT, dir, 'package.json'))
  const deps = { ...(pkg.dependencies as object), ...(pkg.devDependencies as object) }
  return { dir, name: pkg.name as string, declared: new Set(Object.keys(deps)) }
})
const byName = new Map(workspaces.map((workspace) => [workspace.name, workspace]))

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) sources(path, out)
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** The workspace a repo-relative path lies in (the longest matching directory), or null. */
function workspaceOf(path: string): Workspace | null {
  let found: Workspace | null = null
  for (const workspace of workspaces)
    if (path.startsWith(`${workspace.dir}/`) && (found === null || workspace.dir.length > found.dir.length))
      found = workspace
  return found
}

/** `web/src/features/<name>/…` → name; the same for routes (a route file's name without extension). */
function areaOf(path: string, root: string): string | null {
  if (!path.startsWith(root)) return null
  const first = path.slice(root.length).split('/')[0] ?? ''
  // A route file and its tests (`daily.tsx`, `daily.test.tsx`) are one route.
  return first.replace(/\..*$/, '')
}
const FEATURES = 'web/src/features/'
/**
 * Directories outside every workspace that a workspace may still reach relatively, until they are a
 * package: infra/docker's checks and entrypoints, which tests/containers exercises (issue 33 makes
 * them TypeScript; then they get a package name and leave this list).
 */
const NOT_YET_PACKAGES = ['infra/docker/']
const ROUTES = 'web/src/app/routes/'

/** Module specifiers of static imports, re-exports and dynamic imports; comments removed first. */
function specifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
  const found: string[] = []
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1] as string)
  return found
}

const problems: string[] = []
for (const workspace of workspaces) {
  for (const file of sources(join(ROOT, workspace.dir))) {
    const from = relative(ROOT, file).split(sep).join('/')
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('@bosted/')) {
        const target = byName.get(specifier.split('/').slice(0, 2).join('/'))
        if (target !== undefined && target !== workspace && !workspace.declared.has(target.name))
          problems.push(
            `${from}: imports ${specifier}, but ${workspace.dir}/package.json does not declare ${target.name}`,
          )
        continue
      }
      if (!specifier.startsWith('.')) continue
      const to = relative(ROOT, resolve(dirname(file), specifier))
        .split(sep)
        .join('/')
      const target = workspaceOf(to)
      if (target === null && NOT_YET_PACKAGES.some((dir) => to.startsWith(dir))) continue
      if (target !== workspace) {
        const hint = target === null ? 'outside every workspace' : `use ${target.name}`
        problems.push(`${from}: relative import across workspaces '${specifier}' (${hint})`)
        continue
      }
      const [featureA, featureB] = [areaOf(from, FEATURES), areaOf(to, FEATURES)]
      if (featureA !== null && featureB !== null && featureA !== featureB)
        problems.push(
          `${from}: feature ${featureA} imports feature ${featureB} ('${specifier}'); the route composes them`,
        )
      const [routeA, routeB] = [areaOf(from, ROUTES), areaOf(to, ROUTES)]
      if (routeA !== null && routeB !== null && routeA !== routeB)
        problems.push(
          `${from}: route ${routeA} imports route ${routeB} ('${specifier}'); share through a feature or lib`,
        )
    }
  }
}

for (const problem of problems) console.error(problem)
if (problems.length > 0) {
  console.error(`check-boundaries: ${problems.length} import(s) across a boundary (ADR 0026)`)
  process.exit(1)
}
console.log('check-boundaries: every import stays within its boundaries')
