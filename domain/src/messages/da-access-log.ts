import { formatCount } from '../danish-format.ts'

/**
 * The access log's and the export's Danish texts (issue 22), apart from `da` so that /login and the
 * other pages do not carry them: only the access-log route and the api load this module.
 */
/** The access log (Adgangslog) on /admin/person/{id}/settings and the per-person export (issue 22). */
export const daAccessLog = {
  tab: 'Adgangslog',
  settingsTab: 'Indstillinger',
  title: 'Adgangslog',
  intro: 'Hvem har læst eller ændret borgerens data. Nyeste først. Når du åbner loggen, bliver det også logget.',
  roles: {
    admin: 'administrator',
    superuser: 'superbruger',
    employee: 'medarbejder',
    person: 'borger',
    service: 'systemet',
    unknown: 'ukendt rolle',
  },
  /** The sentence of one entry: "Birgitte Holm (medarbejder) læste 12 dagbogsnotater". */
  sentence: (who: string, role: string, did: string) => `${who} (${role}) ${did}`,
  unknownActor: 'Ukendt bruger',
  verbs: {
    get: 'læste',
    list: 'læste',
    create: 'oprettede',
    update: 'ændrede',
    delete: 'slettede',
  },
  objects: {
    person: (_count: number) => 'borgerens oplysninger',
    answers: (count: number) => (count === 1 ? '1 svarmulighed' : `${count} svarmuligheder`),
    registrations: (count: number) => (count === 1 ? '1 registrering' : `${count} registreringer`),
    notes: (count: number) => (count === 1 ? '1 dagbogsnotat' : `${count} dagbogsnotater`),
    avatar: (_count: number) => 'borgerens billede',
  },
  exported: 'eksporterede borgerens data',
  viewedLog: 'åbnede adgangsloggen',
  operations: {
    get: 'Læst (enkelt)',
    list: 'Læst (liste)',
    create: 'Oprettet',
    update: 'Ændret',
    delete: 'Slettet',
    export: 'Eksport',
    viewLog: 'Åbnet adgangslog',
  },
  filterFrom: 'Fra',
  filterTo: 'Til',
  filterActor: 'Medarbejder',
  filterOperation: 'Handling',
  filterAll: 'Alle',
  filters: 'Afgrænsning af adgangsloggen',
  apply: 'Vis',
  entries: 'Poster i adgangsloggen',
  empty: 'Ingen adgang i den valgte periode.',
  loadFailed: 'Adgangsloggen kunne ikke hentes.',
  /** The admin's person page (its tabs Indstillinger · Adgangslog) when the person could not be read. */
  personLoadFailed: 'Borgeren kunne ikke hentes.',
  more: 'Vis flere',
  csv: 'Hent som CSV',
  csvHeader: ['Tidspunkt', 'Navn', 'Email', 'Rolle', 'Handling', 'Data', 'Antal', 'Sti', 'IP-adresse'],
  csvFileName: 'adgangslog',
  csvPending: 'Henter adgangsloggen som CSV',
  csvOk: 'Adgangsloggen er hentet som CSV',
  csvFail: 'Der skete en fejl. Adgangsloggen blev ikke hentet.',
  /** The CSV's "Data" of the entries that name no care record. */
  otherObjects: { accessLog: 'adgangsloggen', export: 'borgerens data' },
  chainIntact: (entries: number) => `Loggen er ubrudt (${formatCount(entries)} poster kontrolleret).`,
  chainBroken: (seq: number) => `Loggen er brudt ved post ${seq}. Kontakt jeres systemadministrator.`,
  writesWithoutEntry: (count: number) =>
    `Loggen mangler poster: ${count.toLocaleString('da-DK')} ${count === 1 ? 'gemt ændring' : 'gemte ændringer'} af borgeres data står ikke i loggen. Kontakt jeres systemadministrator.`,
  chainUnknown: 'Loggens kæde kunne ikke kontrolleres.',
  exportTitle: 'Indsigt i borgerens data',
  export: 'Eksportér borgerens data',
  exportHint:
    'Én fil (zip) med alt, vi har gemt om borgeren: data som JSON, et læsbart resumé og adgangsloggen. Eksporten bliver logget.',
} as const

/** resume.html of the per-person export (indsigt), written by the api. */
export const daExportSummary = {
  title: (name: string) => `Indsigt: ${name}`,
  intro: (at: string, by: string) =>
    `Alt, hvad Bosted har gemt om borgeren, eksporteret ${at} af ${by}. Filen data.json rummer de samme data maskinlæsbart.`,
  details: 'Oplysninger',
  name: 'Navn',
  id: 'Borger-id',
  created: 'Oprettet',
  email: 'Email',
  none: 'Ingen',
  signIn: 'Login',
  noAccount: 'Ingen konto',
  signInOn: 'Kan logge ind',
  signInOff: 'Login er deaktiveret',
  answers: 'Svarmuligheder',
  registrations: 'Registreringer',
  day: 'Dag',
  answer: 'Svar',
  comment: 'Kommentar',
  by: 'Af',
  notes: 'Dagbogsnotater',
  corrected: (by: string, at: string) => `(rettet af ${by}, ${at})`,
  deleted: (by: string, reason: string) => `Slettet af ${by}: ${reason}`,
} as const
