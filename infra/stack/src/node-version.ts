import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './env.ts'

/** The Node.js version every process of the project runs on, pinned in `.node-version` only (ADR 0016). */
export const PINNED_NODE_VERSION = readFileSync(join(REPO_ROOT, '.node-version'), 'utf8').trim()
export const PINNED_NODE_MAJOR = Number(PINNED_NODE_VERSION.split('.')[0])

/**
 * Why `version` cannot run the project, in one sentence, or null when it can: its major must be the
 * pinned one (older lines are out of maintenance or untested; a newer major is not what CI and the
 * images run).
 */
export function nodeVersionProblem(version: string = process.versions.node): string | null {
  const major = Number(version.split('.')[0])
  if (major === PINNED_NODE_MAJOR) return null
  return (
    `Bosted runs on Node ${PINNED_NODE_MAJOR} (${PINNED_NODE_VERSION}, see .node-version), not Node ${version}: ` +
    `start it with make (make start fetches Node ${PINNED_NODE_VERSION} into .tools/node from the npm registry), ` +
    `or put Node ${PINNED_NODE_MAJOR} first on PATH.`
  )
}
