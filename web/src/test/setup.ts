// Imported first by every component test: jest-dom matchers, and a clean DOM after each test
// (vitest runs without globals, so Testing Library cannot register its own cleanup).
import '@testing-library/jest-dom/vitest'
import { installDanishZodErrors } from '@bosted/domain/zod-da'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

// As main.tsx does for the app: zod's messages in Danish.
installDanishZodErrors()

afterEach(() => {
  cleanup()
  localStorage.clear()
  sessionStorage.clear()
})
