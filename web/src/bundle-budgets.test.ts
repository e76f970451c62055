// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  budgets,
  LIVE_BUDGET_KB,
  LOGIN_BUDGET_KB,
  pageBudgetKb,
  ROUTE_BUDGETS_KB,
  SHELL_BUDGET_KB,
  START_FILES_MAX,
} from '../bench/bundle-budgets.ts'

// A production build of the web into a temporary directory, measured as nginx serves it (gzip 5):
// a change that grows /login's first load or a care page's code past its budget fails here.
const WEB = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = mkdtempSync(join(tmpdir(), 'bosted-web-budget-'))
let measured: ReturnType<typeof budgets>

beforeAll(async () => {
  // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({
      root: WEB,
      mode: 'production',
      configFile: join(WEB, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir: dist, emptyOutDir: true },
    })
  } finally {
    process.env.NODE_ENV = nodeEnv
  }
  measured = budgets(dist)
}, 180_000)

afterAll(() => rmSync(dist, { recursive: true, force: true }))

test(`/login loads at most ${LOGIN_BUDGET_KB} KB gzip JavaScript before its form works`, () => {
  expect(measured.loginKb).toBeLessThanOrEqual(LOGIN_BUDGET_KB)
})

test('/login carries no router, Firebase SDK, toaster or chart code before its form works (they load after it)', () => {
  expect(measured.loginCarries).toEqual([])
})

test(`the signed-in shell stays within ${SHELL_BUDGET_KB} KB gzip JavaScript`, () => {
  expect(measured.shellKb).toBeLessThanOrEqual(SHELL_BUDGET_KB)
})

test(`a signed-in page's start (shell, session loaders, early reads) is at most ${START_FILES_MAX} JS files`, () => {
  expect(measured.startFiles).toBeLessThanOrEqual(START_FILES_MAX)
})

test(`the live pages' listening code (the full Firestore SDK) stays within ${LIVE_BUDGET_KB} KB gzip`, () => {
  expect(measured.liveKb).toBeLessThanOrEqual(LIVE_BUDGET_KB)
})

test("no page's start, route code or /login carries the listening code: it loads once a page has its data", () => {
  expect(measured.liveEager).toEqual([])
})

test('no two chunks import each other', () => {
  expect(measured.cycles).toEqual([])
})

test('every route module of the build has a code ceiling, and every ceiling a route', () => {
  expect(Object.keys(measured.routes).sort()).toEqual(Object.keys(ROUTE_BUDGETS_KB).sort())
})

test.each(Object.entries(ROUTE_BUDGETS_KB))('%s stays within %d KB gzip beyond the signed-in shell', (route, kb) => {
  expect(measured.routes[route]).toBeLessThanOrEqual(kb)
})

test.each(Object.keys(ROUTE_BUDGETS_KB))(
  '%s loads, shell and zod included, within the two ceilings together',
  (route) => {
    expect(measured.pages[route]).toBeLessThanOrEqual(pageBudgetKb(route))
  },
)
