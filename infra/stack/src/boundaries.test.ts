import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { checkBoundaries } from './boundaries.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** A small monorepo: web (declaring @x/stack) and infra/stack, with the given files. */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'boundaries-'))
  roots.push(root)
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ workspaces: ['web', 'infra/stack'] }),
    'web/package.json': JSON.stringify({ name: '@x/web', devDependencies: { '@x/stack': '*' } }),
    'infra/stack/package.json': JSON.stringify({ name: '@x/stack' }),
    'infra/stack/src/ports.ts': 'export const port = 1\n',
    'web/src/lib/days.ts': 'export const day = 1\n',
    'web/src/features/notes/note-list.ts': "import { day } from '../../lib/days.ts'\nexport const notes = day\n",
    'web/src/features/persons/person-name.ts': 'export const name = 1\n',
    'web/src/app/routes/daily.tsx':
      "import { notes } from '../../features/notes/note-list.ts'\nexport const d = notes\n",
    'web/src/app/routes/daily.test.tsx': "import { d } from './daily.tsx'\nexport const t = d\n",
    ...files,
  }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

test('a repository whose imports stay within their boundaries passes', () => {
  expect(
    checkBoundaries(repo({ 'web/src/x.ts': "import { port } from '@x/stack/ports'\nexport const x = port\n" })),
  ).toEqual([])
})

test('a feature importing another feature fails, naming both', () => {
  const problems = checkBoundaries(
    repo({ 'web/src/features/notes/api/get.ts': "import { name } from '../../persons/person-name.ts'\n" }),
  )
  expect(problems).toEqual([expect.stringContaining('feature notes imports feature persons')])
})

test('a route importing another route fails; a route and its own test are one route', () => {
  const problems = checkBoundaries(repo({ 'web/src/app/routes/me.tsx': "import { d } from './daily.tsx'\n" }))
  expect(problems).toEqual([expect.stringContaining('route me imports route daily')])
})

test('a relative import into another workspace fails and names its package; a dynamic one too', () => {
  const problems = checkBoundaries(
    repo({
      'web/src/a.ts': "import { port } from '../../infra/stack/src/ports.ts'\n",
      'web/src/b.ts': "const m = await import('../../infra/stack/src/ports.ts')\n",
    }),
  )
  expect(problems).toHaveLength(2)
  for (const problem of problems) expect(problem).toContain('relative import across workspaces')
  expect(problems[0]).toContain('use @x/stack')
})

test('a package import the workspace does not declare fails', () => {
  const problems = checkBoundaries(repo({ 'infra/stack/src/a.ts': "import { day } from '@x/web/lib/days'\n" }))
  expect(problems).toEqual([expect.stringContaining('does not declare @x/web')])
})

test("a third-party package neither the workspace nor the root declares fails; Node's modules and the root's tools pass", () => {
  const problems = checkBoundaries(
    repo({
      'package.json': JSON.stringify({ workspaces: ['web', 'infra/stack'], devDependencies: { vitest: '*' } }),
      'infra/stack/package.json': JSON.stringify({ name: '@x/stack', dependencies: { yaml: '*' } }),
      'infra/stack/src/a.ts': [
        "import { parse } from 'yaml'",
        "import { test } from 'vitest'",
        "import { readFileSync } from 'node:fs'",
        "import { join } from 'path'",
        "import { Ajv } from 'ajv'",
        "import type { Page } from '@playwright/test'",
      ].join('\n'),
    }),
  )
  expect(problems).toEqual([
    expect.stringContaining('imports ajv, but neither infra/stack/package.json nor the root declares ajv'),
    expect.stringContaining('nor the root declares @playwright/test'),
  ])
})

test('imports inside comments are not imports', () => {
  expect(
    checkBoundaries(repo({ 'web/src/features/notes/c.ts': "// import { name } from '../persons/person-name.ts'\n" })),
  ).toEqual([])
})
