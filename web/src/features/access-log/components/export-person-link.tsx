import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { useId } from 'react'
import { personExportUrl } from '../api/export-person.ts'

const text = daAccessLog

/**
 * "Eksportér borgerens data" (indsigt, admins only): a real link the browser downloads, so the zip
 * streams to disk with the session cookie and the api's file name; the api logs the export.
 */
export function ExportPersonLink({ personId }: { personId: string }) {
  const ids = { title: useId(), hint: useId() }
  return (
    <section aria-labelledby={ids.title}>
      <h3 id={ids.title}>{text.exportTitle}</h3>
      <p id={ids.hint} className="field__hint">
        {text.exportHint}
      </p>
      <p>
        <a className="button button--secondary" href={personExportUrl(personId)} download aria-describedby={ids.hint}>
          {text.export}
        </a>
      </p>
    </section>
  )
}
