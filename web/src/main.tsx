import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router-dom'
import { createAppRouter } from './app/router.tsx'
import { stopSessionOnLeave } from './app/session.ts'
import { browserReloadDeps, reloadOnceAfterChunkError } from './lib/chunk-reload.ts'
import { loadRuntimeConfig } from './lib/config.ts'

// A chunk that fails to preload (an old build's file after a deploy): reload once, within the guard.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceAfterChunkError(browserReloadDeps())) event.preventDefault()
})
stopSessionOnLeave()

const root = document.getElementById('root')
if (root === null) throw new Error('index.html has no #root element')

// Zod speaks Danish everywhere (issue 32) before any form can validate; loaded beside the
// configuration so the first chunk carries no zod.
const danishErrors = import('@bosted/domain/zod-da').then(({ installDanishZodErrors }) => installDanishZodErrors())

void Promise.all([loadRuntimeConfig(), danishErrors]).then(() => {
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={createAppRouter()} />
    </StrictMode>,
  )
})
