import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin, type Rollup } from 'vite'
import { serviceWorker } from './vite-service-worker.ts'

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

/**
 * One chunk for a signed-in page's start (issue 34). Left to itself the bundler splits the code every
 * signed-in page runs first into ~40 files of about 1 KB (one per set of dynamic imports that share a
 * module), and over HTTP/1.1's six connections per origin a cold page waited for them in turns. The
 * `app` chunk holds instead what the app, the signed-in shell, the session guard's loaders and the
 * page's early reads import; these roots stay files of their own where they can (tiny: the manifest's
 * keys for the routes and their budgets). It takes no module that the sign-in page's first load, Firebase Auth's
 * early setup or zod's Danish messages hold (so /login carries what it did), and none of the Firebase
 * SDKs (chunks of their own: they change less often than the app).
 */
const START_ROOTS = [
  'src/app/app.tsx',
  'src/app/routes/app-shell.tsx',
  'src/features/session/api/load-session-user.ts',
  'src/features/locations/api/get-locations.ts',
  'src/app/page-data.ts',
  'src/app/page-data-lazy.ts',
]
const START_EXCLUDED_ROOTS = [
  'src/main.tsx',
  'src/app/login-page.tsx',
  'src/lib/firebase.ts',
  '../domain/src/zod-da.ts',
]
const FIREBASE_SDK = /[\\/]node_modules[\\/](firebase|@firebase)[\\/]/
const inStartChunk = new Set<string>()
function startChunk(): Plugin {
  const web = dirname(fileURLToPath(import.meta.url))
  return {
    name: 'bosted-start-chunk',
    apply: 'build',
    buildEnd() {
      /** The modules `roots` import statically, themselves included. */
      const closure = (roots: string[]) => {
        const pending = roots.map((root) => join(web, root))
        const missing = pending.find((id) => this.getModuleInfo(id) === null)
        if (missing !== undefined) this.error(`bosted-start-chunk: ${missing} is not in the build (renamed?)`)
        const found = new Set<string>()
        for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
          if (found.has(id)) continue
          found.add(id)
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []))
        }
        return found
      }
      const excluded = closure(START_EXCLUDED_ROOTS)
      const start = closure(START_ROOTS)
      // A root stays a file of its own unless a module of the chunk imports it statically (the location
      // loader, which the shell's location hook imports): a file of its own would import the chunk that
      // imports it, a cycle.
      for (const root of START_ROOTS.map((path) => join(web, path)))
        if (!this.getModuleInfo(root)?.importers.some((importer) => start.has(importer))) excluded.add(root)
      inStartChunk.clear()
      for (const id of start) if (!excluded.has(id) && !FIREBASE_SDK.test(id)) inStartChunk.add(id)
    },
  }
}

export default defineConfig(({ command }) => ({
  plugins: [react(), runtimeConfig(), bundleForPreloads(), startChunk(), serviceWorker()],
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
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              debugName: 'start',
              name: (id: string) => (inStartChunk.has(id) ? 'app' : null),
              // The set is a closure already: what it leaves out (the sign-in page's, Auth's, the SDKs')
              // only imports what it leaves out too, so no chunk cycle; the bundler adds nothing back.
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
    modulePreload: {
      resolveDependencies: (_file, deps, { hostId }) => {
        const loaded = loadedWith(hostId)
        return deps.filter((dep) => !loaded.has(dep))
      },
    },
  },
  server: { proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? '3001'}` } },
}))
