import { atClock, formatAmount } from '@bosted/domain/danish-format'
import type { Location } from '@bosted/domain/location'
import { da } from '@bosted/domain/messages/da'
import {
  formatDanishDate,
  type SubscriptionChange,
  SubscriptionChangeSchema,
  SubscriptionFormSchema,
  subscriptionFromForm,
  subscriptionLabel,
  subscriptionStatus,
} from '@bosted/domain/subscription'
import { type FormEvent, useId, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { dayOf } from '../../../lib/days.ts'
import type { LocationUpdate } from '../api/update-location.ts'

type Editor = { id: string; name: string }
type Props = { location: Location; editor: Editor; onUpdate: (update: LocationUpdate) => Promise<unknown> }
type Fields = { amount: string; createdAt: string; validUntil: string }

const summary = (value: SubscriptionChange['from']) =>
  value === null
    ? da.admin.subscriptionNone
    : da.admin.subscriptionSummary(value.amount, formatDanishDate(dayOf(value.validUntil)))

/** A location's subscription: amount, start and end, its status, and every change kept in a history. */
export function LocationSubscription({ location, editor, onUpdate }: Props) {
  const current = location.settings.subscription
  const [fields, setFields] = useState<Fields>({
    amount: current === null ? '' : formatAmount(current.amount),
    createdAt: current === null ? dayOf(new Date()) : dayOf(current.createdAt),
    validUntil: current === null ? '' : dayOf(current.validUntil),
  })
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({})
  const historyId = useId()
  const status = subscriptionStatus(current, new Date())
  const history = location.settings.subscriptionHistory
    .map((entry) => SubscriptionChangeSchema.safeParse(entry).data)
    .filter((entry): entry is SubscriptionChange => entry !== undefined)
    .reverse()

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = SubscriptionFormSchema.safeParse(fields)
    if (!parsed.success) {
      const next: Partial<Record<keyof Fields, string>> = {}
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Fields
        next[key] ??= issue.message
      }
      setErrors(next)
      return
    }
    setErrors({})
    const subscription = subscriptionFromForm(parsed.data)
    const change: SubscriptionChange = {
      at: new Date().toISOString(),
      by: editor.id,
      byName: editor.name,
      from: current === null ? null : { amount: current.amount, validUntil: current.validUntil },
      to: { amount: subscription.amount, validUntil: subscription.validUntil },
    }
    void onUpdate({ kind: 'subscription', subscription, change }).catch(() => {})
  }
  const field = (key: keyof Fields, label: string, input: { type: string; inputMode?: 'numeric' | 'decimal' }) => (
    <Field label={label} error={errors[key]}>
      {(control) => (
        <input
          {...control}
          {...input}
          value={fields[key]}
          onChange={(event) => setFields((now) => ({ ...now, [key]: event.target.value }))}
        />
      )}
    </Field>
  )
  return (
    <>
      <p>
        {da.admin.status}:{' '}
        <span
          className={`badge${status.kind === 'expired' ? ' badge--missing' : status.kind === 'expiring' ? ' badge--info' : status.kind === 'active' ? ' badge--ok' : ''}`}
        >
          {subscriptionLabel(status)}
        </span>
      </p>
      <form className="form" onSubmit={handleSubmit} noValidate aria-label={da.admin.subscription}>
        <div className="note-editor__row">
          {field('amount', da.admin.amount, { type: 'text', inputMode: 'decimal' })}
          {field('createdAt', da.admin.startDate, { type: 'date' })}
          {field('validUntil', da.admin.validUntil, { type: 'date' })}
        </div>
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            {da.admin.save}
          </button>
        </div>
      </form>
      <section aria-labelledby={historyId}>
        <h3 id={historyId}>{da.admin.history}</h3>
        {history.length === 0 ? (
          <p className="muted">{da.admin.noHistory}</p>
        ) : (
          <ul className="admin-history">
            {history.map((entry) => (
              <li key={entry.at}>
                {da.admin.change(
                  `${formatDanishDate(dayOf(entry.at))} ${atClock(entry.at)}`,
                  entry.byName,
                  summary(entry.from),
                  summary(entry.to),
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  )
}
