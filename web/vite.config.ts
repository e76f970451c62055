import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin, type Rollup } from 'vite'

/**
 * React Router's package points every import at its development build (its own Vite plugin swaps in
 * the production build, which this app does not use): a production bundle takes the production
 * build, which leaves out the development warnings (issue 34: less code on every signed-in page).
 */
const routerProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production',
)

/**
 * `make dev` hands the stack's runtime configuration (its actual ports) to the dev server, which
 * serves it as /config.json in place of web/public/config.json (the default ports).
 */
function runtimeConfig(): Plugin {
  return {
    name: 'bosted-runtime-config',
    configureServer(server) {
      const config = process.env.WEB_RUNTIME_CONFIG
      if (!config) return
      server.middlewares.use('/config.json', (_req, res) => {
        res.setHeader('content-type', 'application/json')
        res.setHeader('cache-control', 'no-cache')
        res.end(config)
      })
    },
  }
}

/**
 * A dynamic import's preload list (`__vite__mapDeps`) names every chunk the imported module needs, also
 * those the importing chunk has already loaded through its own static imports (the entry, above all).
 * Those are left out: they are loaded whenever the importer runs, and each name costs bytes in every
 * chunk that imports something on demand (issue 33: no page's route code larger than before).
 */
let builtBundle: Rollup.OutputBundle | undefined
function bundleForPreloads(): Plugin {
  return {
    name: 'bosted-bundle-for-preloads',
    generateBundle(_options, bundle) {
      builtBundle = bundle
    },
  }
}
function loadedWith(host: string, files = new Set<string>()): Set<string> {
  const chunk = builtBundle?.[host]
  if (chunk?.type !== 'chunk' || files.has(host)) return files
  files.add(host)
  for (const file of chunk.imports) loadedWith(file, files)
  return files
}

export default defineConfig(({ command }) => ({
  plugins: [react(), runtimeConfig(), bundleForPreloads()],
  resolve:
    command === 'build'
      ? {
          alias: [
            { find: /^react-router$/, replacement: join(routerProduction, 'index.mjs') },
            { find: /^react-router\/dom$/, replacement: join(routerProduction, 'dom-export.mjs') },
          ],
        }
      : {},
  // The manifest lets web/bench/bundle-size.ts tell which chunks each route loads.
  build: {
    manifest: true,
    modulePreload: {
      resolveDependencies: (_file, deps, { hostId }) => {
        const loaded = loadedWith(hostId)
        return deps.filter((dep) => !loaded.has(dep))
      },
    },
  },
  server: { proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? '3001'}` } },
}))
