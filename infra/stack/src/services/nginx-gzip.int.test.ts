import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { REPO_ROOT } from '../env.ts'
import { freePort } from '../ports.ts'

// The real nginx with the real template (native stack and web image alike) in front of a stand-in
// api that answers JSON uncompressed, as the api does: what reaches the browser is gzip.
const NGINX = '/usr/sbin/nginx'
const hasNginx = existsSync(NGINX)

type Render = (input: Record<string, unknown>) => { nginxConfPath: string }
const { renderNginxConfig } = (await import(pathToFileURL(join(REPO_ROOT, 'infra/nginx/render.mjs')).href)) as {
  renderNginxConfig: Render
}

const body = JSON.stringify({
  persons: Array.from({ length: 40 }, (_, index) => ({ id: `p${index}`, name: `Borger ${index}`, day: '2026-11-25' })),
})
const api = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
  res.end(body)
})
let prefix = ''
let nginx: ReturnType<typeof spawn> | undefined
let port = 0

beforeAll(async () => {
  if (!hasNginx) return
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  port = await freePort()
  prefix = mkdtempSync(join(tmpdir(), 'bosted-nginx-gzip-'))
  const { nginxConfPath } = renderNginxConfig({
    appPort: port,
    listenHost: '127.0.0.1',
    apiUpstream: `127.0.0.1:${(api.address() as AddressInfo).port}`,
    webRoot: prefix,
    cspConnectSrc: '',
    prefix,
  })
  const check = spawnSync(NGINX, ['-t', '-p', prefix, '-c', nginxConfPath], { encoding: 'utf8' })
  if (check.status !== 0) throw new Error(check.stderr)
  nginx = spawn(NGINX, ['-p', prefix, '-c', nginxConfPath], { stdio: 'ignore' })
  for (let tries = 0; tries < 100; tries += 1) {
    if (
      await get({}).then(
        () => true,
        () => false,
      )
    )
      return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('nginx did not start')
})

afterAll(async () => {
  nginx?.kill()
  await new Promise<void>((resolve) => (api.listening ? api.close(() => resolve()) : resolve()))
  if (prefix !== '') rmSync(prefix, { recursive: true, force: true })
})

function get(headers: Record<string, string>): Promise<{ headers: Record<string, unknown>; data: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/person/list', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ headers: res.headers, data: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

test.skipIf(!hasNginx)('nginx gzips the api JSON, also for a request that came through another proxy', async () => {
  const offers: Record<string, string>[] = [
    { 'accept-encoding': 'gzip' },
    { 'accept-encoding': 'gzip', via: '1.1 edge' },
  ]
  for (const headers of offers) {
    const response = await get(headers)
    expect(response.headers['content-encoding']).toBe('gzip')
    expect(response.data.length).toBeLessThan(body.length / 2)
    expect(gunzipSync(response.data).toString('utf8')).toBe(body)
  }
  // A client that offers no gzip gets the JSON as it is.
  const plain = await get({})
  expect(plain.headers['content-encoding']).toBeUndefined()
  expect(plain.data.toString('utf8')).toBe(body)
})
