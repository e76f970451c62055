import { defineConfig } from '@playwright/test'
import e2e from './playwright.config.ts'

/**
 * `make screenshots`: every route at the e2e projects' sizes (phone 390×844, tablet 768×1024,
 * desktop), written as PNGs to test-results/screenshots/<project>/ for a reviewer to look at; they
 * are not compared with anything.
 */
export default defineConfig({
  ...e2e,
  testDir: './scripts/screenshots',
  reporter: [['list']],
  outputDir: '../.data/test-results/screenshots-artifacts',
  projects: (e2e.projects ?? []).map(({ grep: _grep, grepInvert: _grepInvert, ...project }) => project),
})
