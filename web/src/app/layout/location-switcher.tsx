import { da } from '@bosted/domain/messages/da'
import { useId } from 'react'
import type { LocationSummary } from '../../features/locations/locations-store.ts'

type Props = { locations: readonly LocationSummary[]; activeId: string | null; onSelect: (id: string) => void }

/**
 * The active location's logo (when it has one) and, for staff with several locations, a switcher.
 * On a narrow header a long name is cut with an ellipsis; the full name stays in the text (and its
 * title) for screen readers and a long press.
 */
export function LocationSwitcher({ locations, activeId, onSelect }: Props) {
  const selectId = useId()
  const active = locations.find((location) => location.id === activeId) ?? null
  if (active === null) return null
  return (
    <div className="location">
      {active.logoUrl !== null && (
        <img className="location__logo" src={active.logoUrl} alt={da.shell.locationLogo(active.name)} />
      )}
      {locations.length > 1 ? (
        <>
          <label className="visually-hidden" htmlFor={selectId}>
            {da.shell.location}
          </label>
          <select
            id={selectId}
            className="location__select"
            title={active.name}
            value={active.id}
            onChange={(event) => onSelect(event.target.value)}
          >
            {locations.map((location) => (
              <option key={location.id} value={location.id}>
                {location.name}
              </option>
            ))}
          </select>
        </>
      ) : (
        <span className="location__name" title={active.name}>
          {active.name}
        </span>
      )}
    </div>
  )
}
