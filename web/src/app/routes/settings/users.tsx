import { da } from '@bosted/domain/messages/da'
import type { User } from '@bosted/domain/user'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { TemporaryPassword } from '../../../features/passwords/components/temporary-password.tsx'
import { PersonAvatar } from '../../../features/persons/components/person-avatar.tsx'
import { personName } from '../../../features/persons/person-name.ts'
import { useLocationStaff } from '../../../features/users-admin/api/get-location-staff.ts'
import { useUpdateUser } from '../../../features/users-admin/api/update-user.ts'
import { EditUserDialog } from '../../../features/users-admin/components/edit-user-dialog.tsx'
import { canEditUser } from '../../../features/users-admin/user-access.ts'
import { paths } from '../../../lib/paths.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'
import { SettingsTable, SignInBadge } from '../../settings-table.tsx'
import { type SettingsAccess, useSettingsAccess } from '../../use-settings-access.ts'

/** Brugere: staff with access to the active location; managers edit, admins change roles too. */
export function Component() {
  const access = useSettingsAccess()
  const { location, loaded, isManager } = access
  return (
    <Page title={da.pages.settingsUsers} level={2}>
      {isManager && (
        <p>
          <Link className="button button--action" to={paths.create.user}>
            {da.form.createUser}
          </Link>
        </p>
      )}
      {!loaded ? (
        <RouteLoading />
      ) : location === null ? (
        <p className="notice">{da.settingsList.noLocation}</p>
      ) : (
        <StaffList key={location.id} locationId={location.id} access={access} />
      )}
    </Page>
  )
}

function StaffList({ locationId, access }: { locationId: string; access: SettingsAccess }) {
  const [editing, setEditing] = useState<User | null>(null)
  const staff = useLocationStaff(locationId)
  const save = useUpdateUser({ canChangeRole: access.isAdmin })

  const viewer = {
    id: access.user?.id ?? '',
    isAdmin: access.isAdmin,
    isManager: access.isManager,
    locations: access.user?.locations ?? [],
  }
  return (
    <QueryState query={staff} errorMessage={da.settingsList.loadFailed}>
      {(data) => (
        <>
          <SettingsTable
            kind="users"
            label={da.settingsList.users}
            list={data}
            columns={
              <>
                <th scope="col">{da.settingsList.name}</th>
                <th scope="col">{da.settingsList.jobRole}</th>
                <th scope="col">{da.settingsList.role}</th>
                <th scope="col">{da.settingsList.status}</th>
                {access.isManager && (
                  <th scope="col">
                    <span className="visually-hidden">{da.settingsList.edit}</span>
                  </th>
                )}
              </>
            }
            row={(user) => {
              const name = personName(user)
              return (
                <tr key={user.id}>
                  <th scope="row">
                    <span className="settings-name">
                      <PersonAvatar person={user} />
                      {name} {user.id === viewer.id && <span className="muted">{da.settingsList.you}</span>}
                    </span>
                  </th>
                  <td>{user.jobRole}</td>
                  <td>{da.form.roles[user.userRole]}</td>
                  <td>
                    <SignInBadge disabled={user.settings.disabled} />
                  </td>
                  {access.isManager && (
                    <td>
                      {canEditUser(viewer, user) && (
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={da.settingsList.editUser(name)}
                          onClick={() => setEditing(user)}
                        >
                          {da.settingsList.edit}
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              )
            }}
          />
          <EditUserDialog
            user={editing}
            canChangeRole={access.isAdmin}
            // Whoever may edit a colleague may give them a temporary password; one's own is changed instead.
            below={(user, name) =>
              user.id === access.user?.id ? null : (
                <TemporaryPassword userId={user.id} name={name} email={user.contact?.email ?? null} />
              )
            }
            onClose={() => setEditing(null)}
            onSubmit={(user, values) => {
              setEditing(null)
              save.mutate({ user, values })
            }}
          />
        </>
      )}
    </QueryState>
  )
}
