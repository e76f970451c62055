import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

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

export default defineConfig(({ command }) => ({
  plugins: [react(), runtimeConfig()],
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
  build: { manifest: true },
  server: { proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? '3001'}` } },
}))
