import { join } from 'node:path'
import { externalTarget, useExternalTarget } from './target.ts'

/**
 * Natively: builds the web app and starts the whole native stack (Auth emulator, emulator-lite, api,
 * seed, nginx or the Node fallback) on free ports for the end-to-end suite; stops it afterwards.
 * With E2E_TARGET set (the Compose stack or a pilot, tests/e2e/target.ts): starts nothing; the base
 * URL and the backend's listeners come from the environment.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const target = externalTarget()
  if (target) return useExternalTarget(target)
  const started = Date.now()
  // Loaded only here: a runner in a container has no native stack (and no native addons).
  const { startTestStack } = await import('@bosted/stack/testing')
  const stack = await startTestStack({ serveWeb: true, seed: true, build: process.env.E2E_SKIP_BUILD !== '1' })
  if (stack.urls.app === null) throw new Error('the web app is missing: web/index.html does not exist')
  process.env.E2E_BASE_URL = stack.urls.app
  process.env.E2E_WEB_SERVER = stack.webServerKind ?? ''
  // The stack's own copy of the built app (app-shell.spec.ts deploys a second build into it).
  process.env.E2E_WEB_ROOT = join(stack.dataDir, 'run', new URL(stack.urls.app).port, 'www')
  for (const [key, value] of Object.entries(stack.env)) if (value !== undefined) process.env[key] = value
  console.log(`e2e stack ready at ${stack.urls.app} (${stack.webServerKind}) in ${Date.now() - started} ms`)
  return () => stack.stop()
}
