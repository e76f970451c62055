import { execFileSync } from 'node:child_process'
import { readlinkSync } from 'node:fs'
import { basename } from 'node:path'
import { expect, test } from 'vitest'
import { PINNED_NODE_MAJOR } from './node-version.ts'
import { startTestStack } from './testing.ts'

/** The Node version of the binary a running process executes, read from /proc (not the `node` on PATH). */
function nodeVersionOf(pid: number): string | null {
  const exe = readlinkSync(`/proc/${pid}/exe`)
  if (!basename(exe).startsWith('node')) return null
  return execFileSync(exe, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()
}

test('every Node process of the native stack runs on the pinned major (.node-version)', async () => {
  // The processes `make start` runs: emulator-lite, the api and the seed (as a one-shot), each started
  // from the launcher's own Node; the web server is nginx (no Node) or the Node fallback.
  const stack = await startTestStack({ serveWeb: false, seed: false, build: false, api: true })
  try {
    const versions: Record<string, string | null> = {}
    for (const service of stack.services) {
      const pid = service.child.pid
      if (pid === undefined) throw new Error(`${service.name} has no process`)
      versions[service.name] = nodeVersionOf(pid)
    }
    expect(Object.keys(versions)).toEqual(expect.arrayContaining(['emulator-lite', 'api']))
    for (const [name, version] of Object.entries(versions)) {
      if (version !== null)
        expect(version.split('.')[0], `${name} runs Node ${version}`).toBe(String(PINNED_NODE_MAJOR))
    }
    expect(nodeVersionOf(process.pid)?.split('.')[0]).toBe(String(PINNED_NODE_MAJOR))
  } finally {
    await stack.stop()
  }
})
