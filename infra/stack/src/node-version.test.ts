import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { REPO_ROOT } from './env.ts'
import { nodeVersionProblem, PINNED_NODE_MAJOR, PINNED_NODE_VERSION } from './node-version.ts'

test('the pinned version is one exact Node 24 LTS release, and engines refuses older majors', () => {
  expect(PINNED_NODE_VERSION).toMatch(/^24\.\d+\.\d+$/)
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
  expect(pkg.engines.node).toBe(`>=${PINNED_NODE_MAJOR}`)
})

test('the pinned major passes; Node 20 and 22 are refused in one sentence that says what to do', () => {
  expect(nodeVersionProblem(PINNED_NODE_VERSION)).toBeNull()
  expect(nodeVersionProblem(`${PINNED_NODE_MAJOR}.0.0`)).toBeNull()
  for (const old of ['20.20.2', '22.12.0']) {
    const problem = nodeVersionProblem(old)
    expect(problem).toContain(`not Node ${old}`)
    expect(problem).toContain('make start fetches')
    expect(problem?.split('. ').length).toBe(1)
  }
  expect(nodeVersionProblem('26.0.0')).toContain('not Node 26.0.0')
})

test('this test process runs on the pinned major', () => {
  expect(process.versions.node.split('.')[0]).toBe(String(PINNED_NODE_MAJOR))
})
