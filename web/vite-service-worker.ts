import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rolldown } from 'rolldown'
import type { Plugin } from 'vite'

const web = dirname(fileURLToPath(import.meta.url))

/** The files of web/public kept with each build (the runtime configuration is kept apart: it is per server). */
function publicFiles(dir = join(web, 'public')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return publicFiles(path)
    const file = `/${relative(join(web, 'public'), path)}`
    return file === '/config.json' ? [] : [file]
  })
}

/**
 * The app shell's service worker (docs/decisions/0034-app-shell.md): web/service-worker/sw.ts as one
 * classic script, /sw.js, with this build's version and every file it emitted (source maps and Vite's
 * manifest left out) written in. A build whose files are the same has the same version.
 */
export function serviceWorker(): Plugin {
  return {
    name: 'bosted-service-worker',
    apply: 'build',
    // After Vite's own: index.html is in the bundle by then.
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const emitted = Object.keys(bundle).filter((file) => !file.endsWith('.map') && !file.startsWith('.vite/'))
      const files = [...emitted.map((file) => `/${file}`), ...publicFiles()].sort()
      const hash = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12)
      const build = { version: `${new Date().toISOString().replace(/[-:.]/g, '')}-${hash}`, files }
      const worker = await rolldown({
        input: join(web, 'service-worker/sw.ts'),
        platform: 'browser',
        transform: { define: { BOSTED_BUILD: JSON.stringify(build) } },
      })
      const { output } = await worker.generate({ format: 'iife', minify: true })
      await worker.close()
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: output[0].code })
    },
  }
}
