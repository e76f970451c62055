import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import './access-log.css'
import { describeAccess, formatAccessTime } from '@bosted/domain/access-log'
import { toCsv } from '@bosted/domain/csv'
import { da } from '@bosted/domain/messages/da'
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query'
import { type ReactNode, useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router-dom'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { ApiError } from '../../../lib/api-client.ts'
import { today } from '../../../lib/days.ts'
import { reportError, useReportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { type AccessLogFilter, accessLogFilterParams, PAGE_SIZE, parseAccessLogFilter } from '../access-log-filter.ts'
import { accessLogCsvRows, accessLogFileName } from '../access-log-rows.ts'
import { getAccessLog } from '../api/get-access-log.ts'
import { getAllAccessLog } from '../api/get-all-access-log.ts'
import { accessLogKeys } from '../api/keys.ts'
import { verifyAccessLog } from '../api/verify-access-log.ts'
import { AccessLogFilters } from './access-log-filters.tsx'

const text = daAccessLog

type Props = {
  personId: string
  /** The person's name, for the CSV's file name only. */
  personName: string
  /** What shows while the first page loads (the app's loading state). */
  loading: ReactNode
}

/** 403 or 404: the log is not this user's to read (or gone); saying so is all there is to do. */
function deniedStatus(error: unknown): 403 | 404 | null {
  const status = error instanceof ApiError ? error.status : null
  return status === 403 || status === 404 ? status : null
}

/** A refusal (403, 404) or a bad request does not get better by asking again; each try would be logged. */
const isRetryable = (count: number, error: Error) =>
  count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500)

function download(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/**
 * A person's access log (Adgangslog): who read or changed their data, newest first, with filters in
 * the URL, "Vis flere", a CSV of everything the filter matches, and whether the log's chain is intact.
 */
export function AccessLogPanel({ personId, personName, loading }: Props) {
  const [params, setParams] = useSearchParams()
  const day = today()
  const filter = parseAccessLogFilter(params, day)
  const listRef = useRef<HTMLOListElement>(null)
  const focusFrom = useRef<number | null>(null)

  const log = useInfiniteQuery({
    queryKey: accessLogKeys.pages(personId, filter),
    queryFn: ({ pageParam }) => getAccessLog(personId, filter, { pageToken: pageParam, pageSize: PAGE_SIZE }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextPageToken ?? undefined,
    retry: isRetryable,
    // Every first page is an opening of the log, and logged as one: not on each return to the window.
    refetchOnWindowFocus: false,
  })
  const chain = useQuery({
    queryKey: accessLogKeys.verify,
    queryFn: verifyAccessLog,
    enabled: log.isSuccess,
    retry: isRetryable,
    refetchOnWindowFocus: false,
  })
  useReportError('the access log chain could not be verified', chain.error)

  const csv = useMutation({
    mutationFn: () =>
      toastPromise(
        getAllAccessLog(personId, filter).then((entries) =>
          download(accessLogFileName(personName, filter.from, filter.to), toCsv(accessLogCsvRows(entries))),
        ),
        { pending: text.csvPending, resolved: text.csvOk, rejected: text.csvFail },
      ),
    onError: reportError('the access log CSV could not be made'),
  })

  const entries = log.data?.pages.flatMap((page) => page.entries) ?? []
  const actors = log.data?.pages[0]?.actors ?? []
  const handleFilter = (next: AccessLogFilter) => setParams(accessLogFilterParams(next, day))
  const handleMore = () => {
    focusFrom.current = entries.length
    void log.fetchNextPage()
  }
  // Keyboard and screen reader users continue at the first entry "Vis flere" added.
  useEffect(() => {
    const from = focusFrom.current
    if (from === null || entries.length <= from) return
    focusFrom.current = null
    const first = listRef.current?.children[from]
    if (first instanceof HTMLElement) first.focus()
  }, [entries.length])

  const content = (
    <QueryState
      query={log}
      errorMessage={(error) => {
        const status = deniedStatus(error)
        return status === 403 ? da.api.forbidden : status === 404 ? da.api.notFound : text.loadFailed
      }}
      canRetry={(error) => deniedStatus(error) === null}
      report="the access log could not be loaded"
      loading={<div aria-busy="true">{loading}</div>}
    >
      {() => (
        <>
          {entries.length === 0 ? (
            <p className="muted">{text.empty}</p>
          ) : (
            <ol ref={listRef} className="access-log__list" aria-label={text.entries}>
              {entries.map((entry) => (
                <li key={entry.seq} className="access-log__entry" tabIndex={-1}>
                  {describeAccess(entry, text)}
                  <span className="access-log__time">
                    {' · '}
                    <time dateTime={entry.timestamp}>{formatAccessTime(entry.timestamp)}</time>
                  </span>
                </li>
              ))}
            </ol>
          )}
          <div className="access-log__actions">
            {log.hasNextPage && (
              <button
                type="button"
                className="button button--secondary"
                disabled={log.isFetchingNextPage}
                onClick={handleMore}
              >
                {text.more}
              </button>
            )}
            {entries.length > 0 && (
              <button
                type="button"
                className="button button--secondary"
                disabled={csv.isPending}
                aria-busy={csv.isPending}
                onClick={() => csv.mutate()}
              >
                {text.csv}
              </button>
            )}
          </div>
        </>
      )}
    </QueryState>
  )

  const verification = chain.data
  // The chain can be whole while writes lack their entries (entries cut off its end): ADR 0017.
  const withoutEntry = verification?.writesWithoutEntry ?? 0
  const broken = verification !== undefined && (!verification.intact || withoutEntry > 0)
  return (
    <div className="access-log">
      <p>{text.intro}</p>
      <AccessLogFilters key={JSON.stringify(filter)} filter={filter} actors={actors} onFilter={handleFilter} />
      <p role="status" className={`access-log__chain${broken ? ' access-log__chain--broken' : ''}`}>
        {verification !== undefined
          ? !verification.intact
            ? text.chainBroken(verification.brokenAt ?? 0)
            : withoutEntry > 0
              ? text.writesWithoutEntry(withoutEntry)
              : text.chainIntact(verification.entries)
          : chain.isError
            ? text.chainUnknown
            : ''}
      </p>
      {content}
    </div>
  )
}
