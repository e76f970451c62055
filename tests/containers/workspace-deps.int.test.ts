// What an image's node_modules holds (infra/docker/workspace-deps.ts): a workspace's production
// dependencies by npm's own resolution, read here from this checkout's install.
import { existsSync, lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyWorkspaceDeps, isNestedModules, packageFolders } from '@bosted/docker/workspace-deps'
import { afterAll, expect, test } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const target = mkdtempSync(join(tmpdir(), 'workspace-deps-'))
afterAll(() => rmSync(target, { recursive: true, force: true }))

test('the package folders are those npm ls printed below node_modules, once each, the root left out', () => {
  const printed = ['/app', '/app/node_modules/hono', '/app/node_modules/a/node_modules/b', '/app/node_modules/hono', '']
  expect(packageFolders(printed.join('\n'), '/app')).toEqual(['node_modules/a/node_modules/b', 'node_modules/hono'])
  expect(isNestedModules('node_modules/a', 'node_modules/a/node_modules')).toBe(true)
  expect(isNestedModules('node_modules/a', 'node_modules/a/lib')).toBe(false)
  expect(isNestedModules('node_modules/a', 'node_modules/a/node_modules/b/node_modules')).toBe(false)
})

test("the api's image gets the api's production dependencies and none of the other workspaces'", () => {
  const folders = copyWorkspaceDeps(ROOT, ['api'], target)
  const has = (name: string) => existsSync(join(target, 'node_modules', name, 'package.json'))
  for (const name of ['hono', 'firebase-admin', 'jose', 'zod', 'tsx', '@hono/node-server']) expect(has(name)).toBe(true)
  // emulator-lite's and the native stack's (the api's dev dependencies), the web's and the tests'.
  for (const name of ['better-sqlite3', 'firebase-tools', 're2', 'vite', 'playwright', 'vitest', 'autocannon'])
    expect(has(name)).toBe(false)
  // The workspaces stay links to their sources, which the image copies beside node_modules.
  const domain = join(target, 'node_modules/@bosted/domain')
  expect(lstatSync(domain).isSymbolicLink()).toBe(true)
  expect(readlinkSync(domain)).toBe('../../domain')
  expect(folders.length).toBeGreaterThan(50)
})
