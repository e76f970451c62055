import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { REPO_ROOT } from '../env.ts'

type Render = (input: Record<string, unknown>) => { nginxConfPath: string }
const { renderNginxConfig } = (await import(pathToFileURL(join(REPO_ROOT, 'infra/nginx/render.mjs')).href)) as {
  renderNginxConfig: Render
}

function listenLines(listenHost: string | undefined): string[] {
  const prefix = mkdtempSync(join(tmpdir(), 'bosted-nginx-'))
  try {
    renderNginxConfig({
      appPort: 8123,
      listenHost,
      apiUpstream: '127.0.0.1:3001',
      webRoot: '/w',
      cspConnectSrc: '',
      prefix,
    })
    return readFileSync(join(prefix, 'app.conf'), 'utf8')
      .split('\n')
      .filter((line) => line.trim().startsWith('listen'))
      .map((line) => line.trim())
  } finally {
    rmSync(prefix, { recursive: true, force: true })
  }
}

test('natively nginx binds STACK_HOST like every other service, not every address', () => {
  expect(listenLines('127.0.0.1')).toEqual(['listen 127.0.0.1:8123;'])
  expect(listenLines('::1')).toEqual(['listen [::1]:8123;'])
})

test('in the web container (no host given) nginx listens on the port alone', () => {
  expect(listenLines(undefined)).toEqual(['listen 8123;'])
})
