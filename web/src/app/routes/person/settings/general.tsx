import { da } from '@bosted/domain/messages/da'
import { displayName } from '@bosted/domain/names'
import type { Person } from '@bosted/domain/person'
import { PersonGeneralSchema } from '@bosted/domain/person-general'
import { zodResolver } from '@hookform/resolvers/zod'
import { useCallback, useEffect, useRef } from 'react'
import { FormProvider, useForm } from 'react-hook-form'
import { useLocation, useParams } from 'react-router-dom'
import { Choice } from '../../../../components/ui/choice.tsx'
import { Field } from '../../../../components/ui/field.tsx'
import { LeaveGuard } from '../../../../components/ui/leave-guard.tsx'
import { NameContactFields } from '../../../../components/ui/name-contact-fields.tsx'
import { Page } from '../../../../components/ui/page.tsx'
import { TemporaryPassword } from '../../../../features/passwords/components/temporary-password.tsx'
import { PersonAvatarSettings } from '../../../../features/persons/components/person-avatar-settings.tsx'
import { type GeneralValues, generalChanges, generalValuesOf } from '../../../../features/persons/person-changes.ts'
import { usePersonSettings } from '../../../../features/persons/use-person-settings.ts'
import { useSettingsAccess } from '../../../use-settings-access.ts'

/** Generelt: name, contact, locale and whether the person is disabled. */
export function Component() {
  const { id = '' } = useParams()
  const { person, canEdit, save } = usePersonSettings(id, useSettingsAccess())
  return (
    <Page title={da.pages.personSettingsGeneral} level={3}>
      {!canEdit && <p className="notice">{da.form.readOnly}</p>}
      {person !== null && <PersonAvatarSettings person={person} canEdit={canEdit} />}
      {person !== null && (
        <GeneralForm
          key={id}
          person={person}
          canEdit={canEdit}
          onSave={(values) => save.mutateAsync(generalChanges(values))}
        />
      )}
      {person !== null && canEdit && (
        <TemporaryPassword userId={id} name={displayName(person)} email={person.contact?.email ?? null} />
      )}
    </Page>
  )
}

function GeneralForm({
  person,
  canEdit,
  onSave,
}: {
  person: Person
  canEdit: boolean
  onSave: (values: GeneralValues) => Promise<void>
}) {
  const form = useForm<GeneralValues>({
    resolver: zodResolver(PersonGeneralSchema),
    mode: 'onBlur',
    defaultValues: generalValuesOf(person),
  })
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(generalValuesOf(person))
  }, [person, form])
  const { pathname } = useLocation()
  const isDirty = useRef(false)
  isDirty.current = form.formState.isDirty
  const shouldWarn = useCallback(() => isDirty.current, [])
  return (
    <FormProvider {...form}>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          await onSave(values).then(
            () => form.reset(values),
            () => {},
          )
        })}
      >
        <fieldset className="form__fieldset" disabled={!canEdit}>
          <NameContactFields />
          <Field label={da.form.locale}>
            {(control) => (
              <select {...control} {...form.register('locale')}>
                {Object.entries(da.form.locales).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Choice label={da.form.disabled} {...form.register('disabled')} />
          {canEdit && (
            <div className="form__actions">
              <button type="submit" className="button button--action" disabled={form.formState.isSubmitting}>
                {da.form.save}
              </button>
            </div>
          )}
        </fieldset>
      </form>
      <LeaveGuard shouldWarn={shouldWarn} within={pathname} message={da.form.unsavedChanges} />
    </FormProvider>
  )
}
