import { da } from '@bosted/domain/messages/da'
import { useEffect, useState } from 'react'

type RuntimeConfig = { firebase: { projectId?: string } }

/**
 * Placeholder shell until the app-shell issue lands: proves the built bundle, its runtime
 * configuration (/config.json) and the domain catalogue reach the browser.
 */
export function App() {
  const [projectId, setProjectId] = useState<string | null>(null)
  useEffect(() => {
    fetch('/config.json')
      .then((response) => response.json() as Promise<RuntimeConfig>)
      .then((config) => setProjectId(config.firebase.projectId ?? null))
      .catch(() => setProjectId(null))
  }, [])
  return (
    <main>
      <h1>Bosted</h1>
      <nav aria-label="Hovedmenu">
        <a href="/daily">{da.nav.daily}</a> <a href="/notes">{da.nav.notes}</a>{' '}
        <a href="/statistics">{da.nav.statistics}</a>
      </nav>
      {projectId !== null && <p data-testid="project-id">{projectId}</p>}
    </main>
  )
}
