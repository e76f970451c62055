/**
 * Every Danish (and spec-mandated English) text the product shows, once. The spec's texts are exact:
 * tests assert the literal strings, so a change here fails a test.
 */
export const da = {
  nav: {
    daily: 'Dagsoversigt',
    notes: 'Dagbøger',
    statistics: 'Statistik',
    settings: 'Indstillinger',
    admin: 'Admin',
    logout: 'Log ud',
  },
  validation: {
    firstNameRequired: 'Fornavn er påkrævet',
    emailRequired: 'Email er påkrævet',
    emailInvalid: 'Ugyldig email format',
    passwordRequired: 'Adgangskode er påkrævet',
    passwordTooShort: 'Adgangskode skal være mindst 6 tegn',
    firstNameTooShort: 'Fornavn skal være mindst 2 tegn',
  },
  leaveCreation: 'Du har ikke udfyldt alle påkrævede felter. Er du sikker på, at du vil forlade siden?',
  person: {
    updatePending: 'Opdaterer borger',
    updateOk: 'Borgeren blev opdateret korrekt',
    updateFail: 'Der skete en fejl med at opdatere borgeren',
    addPending: 'Tilføjer borger',
    addOk: 'Borgeren blev tilføjet korrekt',
    authCreateFail: 'Auth-oprettelse af borger fejlede',
    addFail: 'Der skete en fejl. Borgeren blev ikke tilføjet.',
  },
  location: {
    createPending: 'Opretter lokation',
    createOk: 'Lokationen blev oprettet',
    createFail: 'Der skete en fejl under oprettelse af lokationen',
    updatePending: 'Opdaterer lokation',
    updateOk: 'Lokationen blev opdateret',
    updateFail: 'Der skete en fejl med at opdatere lokationen',
  },
  errors: {
    logoutFailed: 'An error occurred during logout.',
    notFoundTitle: 'Page Not Found',
    notFound: (path: string) => `Page Not Found: ${path}`,
    internal: 'Internal Server Error',
    missingFirebaseConfig: 'Missing Firebase configuration keys',
  },
  /** Messages for the api's stable error codes, shown by the web. */
  api: {
    unauthenticated: 'Du er ikke logget ind.',
    forbidden: 'Du har ikke adgang til dette.',
    notFound: 'Det findes ikke.',
    invalidRequest: 'Ugyldig forespørgsel.',
    emailExists: 'Der findes allerede en bruger med denne email.',
    tooManyRequests: 'For mange forsøg. Vent lidt, og prøv igen.',
    payloadTooLarge: 'Forespørgslen er for stor.',
    crossSite: 'Forespørgslen blev afvist af sikkerhedshensyn.',
    internal: 'Der skete en uventet fejl. Prøv igen.',
    unavailable: 'Tjenesten er ikke tilgængelig lige nu.',
  },
} as const
