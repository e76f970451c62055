// The import boundaries of ADR 0026, checked by scripts/check-boundaries.ts (`make lint`). Each relative
// import is resolved to the file it names, which Biome's noRestrictedImports cannot do (it matches
// the import text), so "another feature" and "another workspace" are decided by where files are:
// - a relative import must stay inside its workspace: workspaces import each other by package name
//   (`@bosted/stack/ports`), and declare each other in their package.json;
// - web/src/features/<a> imports nothing of web/src/features/<b> (the route composes features);
// - web/src/app/routes/<a> imports nothing of web/src/app/routes/<b> (shared pieces live in a
//   feature, web/src/lib, web/src/app or the domain).
// Import cycles are Biome's (suspicious/noImportCycles, type imports included).
import { readdirSync, readFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/
const SKIP = new Set(['node_modules', 'dist', '.data', '.tools', 'test-results', 'playwright-report'])

type Workspace = { dir: string; name: string; declared: Set<string> }

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
}

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
function workspaceOf(workspaces: readonly Workspace[], path: string): Workspace | null {
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
const ROUTES = 'web/src/app/routes/'

/**
 * Module specifiers of static imports, re-exports and dynamic imports: each string literal right after
 * `from`, `import` or `import(` in code, so text in comments and other strings (a test's fixture)
 * never counts.
 */
function specifiers(source: string): string[] {
  const found: string[] = []
  const token = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|(["'`])((?:\\.|(?!\1)[^\\])*)\1/g
  let code = ''
  let last = 0
  for (const match of source.matchAll(token)) {
    code = (code + source.slice(last, match.index)).slice(-40)
    last = match.index + match[0].length
    if (match[1] === undefined) continue
    if (/(?:\bfrom|\bimport|\bimport\s*\()\s*$/.test(code)) found.push(match[2] as string)
    code += '""'
  }
  return found
}

/**
 * Every import of the repository at `root` that crosses a boundary of ADR 0026, as one line each
 * (`file: what`); empty when all hold.
 */
export function checkBoundaries(root: string): string[] {
  const workspaces: Workspace[] = (readJson(join(root, 'package.json')).workspaces as string[]).map((dir) => {
    const pkg = readJson(join(root, dir, 'package.json'))
    const deps = { ...(pkg.dependencies as object), ...(pkg.devDependencies as object) }
    return { dir, name: pkg.name as string, declared: new Set(Object.keys(deps)) }
  })
  const byName = new Map(workspaces.map((workspace) => [workspace.name, workspace]))
  const rootPkg = readJson(join(root, 'package.json'))
  const rootDeclared = new Set(
    Object.keys({ ...(rootPkg.dependencies as object), ...(rootPkg.devDependencies as object) }),
  )
  const problems: string[] = []
  for (const workspace of workspaces) {
    for (const file of sources(join(root, workspace.dir))) {
      const from = relative(root, file).split(sep).join('/')
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) {
          // A package: a workspace's name is its first segment, or its first two when scoped.
          const name = specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/')
          const target = byName.get(name)
          if (target !== undefined && target !== workspace && !workspace.declared.has(target.name))
            problems.push(
              `${from}: imports ${specifier}, but ${workspace.dir}/package.json does not declare ${target.name}`,
            )
          // Any other package: declared by the workspace, or by the root (the tools every workspace
          // shares); one that is only there because something else pulled it in can vanish.
          else if (target === undefined && !isBuiltin(name) && !workspace.declared.has(name) && !rootDeclared.has(name))
            problems.push(
              `${from}: imports ${specifier}, but neither ${workspace.dir}/package.json nor the root declares ${name}`,
            )
          continue
        }
        const to = relative(root, resolve(dirname(file), specifier))
          .split(sep)
          .join('/')
        const target = workspaceOf(workspaces, to)
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
  return problems
}
