import { da } from '@bosted/domain/messages/da'
import { Page } from '../../../../components/ui/page.tsx'

/** Its content arrives with its own issue. */
export function Component() {
  return <Page title={da.pages.stepSettings} level={2} />
}
