// Prints the house-style measures of issue 33, to compare a tree before and after a change:
//
//   node infra/stack/scripts/style-measures.ts [--summary] [root]   (default root: this repository;
//   --summary leaves out the per-file lists)
//
// Every measure is a text heuristic, stated beside its count; it reads files, writes nothing, and
// needs nothing beyond Node (the duplicate pairs come from the machine's `duplicates` tool when it is
// on the PATH).
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const SKIP_DIRS = new Set(['node_modules', '.git', '.tools', '.data', 'dist', 'test-results', 'playwright-report'])
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/
const TEST = /(\.(test|spec|int\.test|parity\.test)\.[cm]?[jt]sx?$)|(^|\/)(test|tests|e2e|__tests__)\//
const BENCH = /(^|\/)bench|bench[^/]*\.[cm]?[jt]s$/

export type Source = { path: string; text: string }

export function codeFiles(root: string): Source[] {
  const out: Source[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(join(dir, entry.name))
      } else if (entry.isFile() && CODE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const full = join(dir, entry.name)
        out.push({ path: relative(root, full).split(sep).join('/'), text: readFileSync(full, 'utf8') })
      }
    }
  }
  walk(root)
  return out.sort((a, b) => a.path.localeCompare(b.path))
}

export const isTest = (path: string) => TEST.test(path) || path.startsWith('tests/')
export const isBench = (path: string) => BENCH.test(path)

const count = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].length

/** Query-cache calls: hooks of TanStack Query and invalidations. */
export const QUERY_CALLS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'useQuery/useInfiniteQuery/useSuspenseQuery/useQueries',
    /\buse(?:Suspense)?(?:Infinite)?Quer(?:y|ies)\s*(?:<[^>()]*>)?\s*\(/g,
  ],
  ['useMutation', /\buseMutation\s*(?:<[^>()]*>)?\s*\(/g],
  ['invalidateQueries', /\.invalidateQueries\s*\(/g],
]

/** A `<label` written by hand in a component (outside the shared Field); each is a field block of its own. */
export const HAND_LABEL = /<label\b/g
/** A retry button's text rendered by hand (`{da.x.retry}`), i.e. a loading/error block of its own. */
export const HAND_RETRY = /\{[\w.]*\.retry\}/g
/** `onError` handlers that only warn on the console. */
export const WARN_ON_ERROR = /onError\s*:\s*(?:\([^)]*\)|\w+)\s*=>\s*\{?\s*console\.warn/g
/** A string starting with one of the app's top-level routes. */
const ROUTE_LITERAL = /(['"`])\/(daily|notes|statistics|settings|person|create|admin|login|me)\b/g

export function collectionNames(root: string): string[] {
  const paths = readFileSync(join(root, 'domain/src/paths.ts'), 'utf8')
  return [...paths.matchAll(/^export const [A-Z_]+ = '([a-zA-Z]+)'/gm)].map((m) => m[1]!)
}

/**
 * A collection spelled as a literal: the name as the argument of `collection(…)`/`collectionGroup(…)` or
 * compared with `===`, or a path string starting with `name/` (Firestore or Storage).
 */
export function collectionLiteral(names: string[]): RegExp {
  const name = `(?:${names.join('|')})`
  return new RegExp(
    `(?:collection(?:Group)?\\(\\s*(?:[\\w.]+\\s*,\\s*)?|[!=]==?\\s*)(['"\`])${name}\\1|(['"\`])${name}/`,
    'g',
  )
}

// --- imports

type Workspace = { dir: string; name: string; exports: Record<string, string> }

function workspaces(root: string): Workspace[] {
  const { workspaces: dirs } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }
  return dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
      name: string
      exports?: Record<string, string>
    }
    return { dir, name: pkg.name, exports: pkg.exports ?? {} }
  })
}

export const workspaceOf = (path: string, dirs: string[]) =>
  dirs.filter((dir) => path.startsWith(`${dir}/`)).sort((a, b) => b.length - a.length)[0] ?? '(root)'

const IMPORT =
  /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm

export type Edge = { from: string; to: string; spec: string; typeOnly: boolean }

function resolveFile(base: string, existing: Set<string>): string | undefined {
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.mjs`,
    `${base}.js`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ]
  return candidates.find((c) => existing.has(c))
}

export function importEdges(files: Source[], spaces: Workspace[]): Edge[] {
  const existing = new Set(files.map((f) => f.path))
  const edges: Edge[] = []
  for (const file of files) {
    for (const m of file.text.matchAll(IMPORT)) {
      const spec = m[3] ?? m[4]!
      const typeOnly = Boolean(m[2])
      let target: string | undefined
      if (spec.startsWith('.')) {
        target = resolveFile(join(dirname(file.path), spec).split(sep).join('/'), existing)
      } else {
        const space = spaces.find((w) => spec === w.name || spec.startsWith(`${w.name}/`))
        if (space) {
          const sub = spec === space.name ? '.' : `.${spec.slice(space.name.length)}`
          let mapped = space.exports[sub]
          if (!mapped && space.exports['./*']) mapped = space.exports['./*'].replace('*', sub.slice(2))
          if (mapped) target = resolveFile(join(space.dir, mapped).split(sep).join('/'), existing)
        }
      }
      if (target) edges.push({ from: file.path, to: target, spec, typeOnly })
    }
  }
  return edges
}

/** Strongly connected components with more than one file (or a file importing itself). */
export function cycles(edges: Edge[]): string[][] {
  const graph = new Map<string, string[]>()
  for (const { from, to } of edges) graph.set(from, [...(graph.get(from) ?? []), to])
  let index = 0
  const indexOf = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    indexOf.set(node, index)
    low.set(node, index)
    index++
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!))
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort())
    }
  }
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node)
  return found
}

// --- duplicates

function duplicatePairs(root: string, files: Source[]): string {
  const which = spawnSync('sh', ['-c', 'command -v duplicates'], { encoding: 'utf8' })
  if (which.status !== 0) return 'not measured (no `duplicates` tool on the PATH)'
  const scratch = mkdtempSync(join(tmpdir(), 'style-measures-'))
  try {
    for (const { path } of files) {
      if (isTest(path) || isBench(path)) continue
      mkdirSync(dirname(join(scratch, path)), { recursive: true })
      copyFileSync(join(root, path), join(scratch, path))
    }
    const run = spawnSync('duplicates', ['--repo', scratch, '--seconds', '300'], { encoding: 'utf8' })
    return (run.stdout.split('\n')[0] ?? '').trim() || run.stderr.trim()
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

// --- report

function main(rootArg: string | undefined, summary: boolean): void {
  const root = resolve(rootArg ?? join(fileURLToPath(import.meta.url), '../../../..'))
  const all = codeFiles(root)
  const source = all.filter((f) => !isTest(f.path))
  const spaces = workspaces(root)
  const dirs = spaces.map((w) => w.dir)
  const line = (label: string, value: number | string) => console.log(`${label.padEnd(64)} ${value}`)
  const perFile = (files: Source[], pattern: RegExp) =>
    files.map((f) => [f.path, count(f.text, pattern)] as const).filter(([, n]) => n > 0)
  const detail = (rows: ReadonlyArray<readonly [string, number]>) => {
    if (summary) return
    for (const [path, n] of rows) console.log(`    ${String(n).padStart(3)}  ${path}`)
  }

  console.log(`style measures of ${root}`)
  console.log('(code files: .ts .tsx .js .mjs .cjs; "source" excludes tests: *.test.*, *.spec.*, test/, e2e/, tests/)')

  console.log('\n1. query-cache calls in web/src/app (source) — and in web/src/features, for comparison')
  const app = source.filter((f) => f.path.startsWith('web/src/app/'))
  const features = source.filter((f) => f.path.startsWith('web/src/features/'))
  for (const [label, pattern] of QUERY_CALLS) {
    line(
      `   ${label}: app / features`,
      `${count(app.map((f) => f.text).join('\n'), pattern)} / ${count(features.map((f) => f.text).join('\n'), pattern)}`,
    )
  }
  const appQueryFiles = app
    .map((f) => [f.path, QUERY_CALLS.reduce((n, [, p]) => n + count(f.text, p), 0)] as const)
    .filter(([, n]) => n > 0)
  line('   files under web/src/app calling the query cache', appQueryFiles.length)
  detail(appQueryFiles)

  console.log('\n2. hand-written field blocks: `<label` in web .tsx source outside components/ui/field.tsx')
  const webTsx = source.filter((f) => f.path.startsWith('web/src/') && f.path.endsWith('.tsx'))
  const labels = perFile(
    webTsx.filter((f) => f.path !== 'web/src/components/ui/field.tsx'),
    HAND_LABEL,
  )
  line('   hand-written labels / files', `${labels.reduce((n, [, c]) => n + c, 0)} / ${labels.length}`)
  detail(labels)

  console.log('\n3. hand-written loading/error blocks: a retry text `{….retry}` rendered outside a shared QueryState')
  const retries = perFile(
    webTsx.filter((f) => !/query-state/.test(f.path)),
    HAND_RETRY,
  )
  line('   retry blocks / files', `${retries.reduce((n, [, c]) => n + c, 0)} / ${retries.length}`)
  detail(retries)
  const da = existsSync(join(root, 'domain/src/messages/da.ts'))
    ? readFileSync(join(root, 'domain/src/messages/da.ts'), 'utf8')
    : ''
  line("   'Prøv igen' messages in domain/src/messages/da.ts (exact text)", count(da, /:\s*'Prøv igen'/g))
  line(
    '   `onError: … => console.warn(…)` copies in web source',
    count(
      source
        .filter((f) => f.path.startsWith('web/'))
        .map((f) => f.text)
        .join('\n'),
      WARN_ON_ERROR,
    ),
  )
  const routeFiles = perFile(
    source.filter((f) => f.path.startsWith('web/src/') && !/(^|\/)paths\.ts$/.test(f.path)),
    ROUTE_LITERAL,
  )
  line('   web source files spelling a route path as a literal', routeFiles.length)

  console.log("\n4. literal collection names outside domain (source): collection('x'), === 'x', or a path 'x/…'")
  const names = collectionNames(root)
  const literal = collectionLiteral(names)
  const literals = perFile(
    source.filter((f) => !f.path.startsWith('domain/')),
    literal,
  )
  line(`   literals of ${names.join('|')} / files`, `${literals.reduce((n, [, c]) => n + c, 0)} / ${literals.length}`)
  const byWorkspace = new Map<string, number>()
  for (const [path, n] of literals)
    byWorkspace.set(workspaceOf(path, dirs), (byWorkspace.get(workspaceOf(path, dirs)) ?? 0) + n)
  for (const [space, n] of byWorkspace) console.log(`    ${String(n).padStart(3)}  ${space}`)

  console.log('\n5. imports (every code file, tests included; relative and @bosted/* specifiers resolved)')
  const edges = importEdges(all, spaces)
  const crossRelative = edges.filter(
    (e) => e.spec.startsWith('.') && workspaceOf(e.from, dirs) !== workspaceOf(e.to, dirs),
  )
  line('   relative imports across workspaces', crossRelative.length)
  if (!summary) for (const e of crossRelative) console.log(`         ${e.from} → ${e.spec}`)
  const featureOf = (p: string) => /^web\/src\/features\/([^/]+)\//.exec(p)?.[1]
  const routeOf = (p: string) => /^web\/src\/app\/routes\/([^/.]+)/.exec(p)?.[1]
  const featureToFeature = edges.filter(
    (e) => featureOf(e.from) && featureOf(e.to) && featureOf(e.from) !== featureOf(e.to),
  )
  line('   feature → other feature imports', featureToFeature.length)
  if (!summary) for (const e of featureToFeature) console.log(`         ${e.from} → ${e.spec}`)
  const routeToRoute = edges.filter((e) => routeOf(e.from) && routeOf(e.to) && routeOf(e.from) !== routeOf(e.to))
  line('   route → other route imports (between top-level route folders)', routeToRoute.length)
  if (!summary) for (const e of routeToRoute) console.log(`         ${e.from} → ${e.spec}`)
  const cyclesAll = cycles(edges)
  const cyclesValue = cycles(edges.filter((e) => !e.typeOnly))
  line('   import cycles (type imports included / value imports only)', `${cyclesAll.length} / ${cyclesValue.length}`)
  for (const c of cyclesAll) console.log(`         ${c.join(' ↔ ')}`)

  console.log('\n6. the ten largest code files outside tests (lines)')
  for (const f of [...source].sort((a, b) => b.text.split('\n').length - a.text.split('\n').length).slice(0, 10)) {
    console.log(`    ${String(f.text.split('\n').length).padStart(5)}  ${f.path}`)
  }

  console.log('\n7. duplicated code outside tests and benches (`duplicates` over a copy of those files)')
  console.log(`   ${duplicatePairs(root, all)}`)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(
    process.argv.slice(2).find((arg) => !arg.startsWith('--')),
    process.argv.includes('--summary'),
  )
}
