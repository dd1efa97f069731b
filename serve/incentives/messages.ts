import type { Language } from '../../schemas/incentives/enums.ts';

/** Every message the incentives routes answer with (beyond the common validation ones), in English and Spanish. */
export const messages = {
  en: {
    unknownUtility: (id: string, state: string, closest: readonly string[]) =>
      `Unknown utility "${id}": it does not serve ${state}.${didYouMean(closest, 'Did you mean')}`,
    unknownGasUtility: (id: string, state: string, closest: readonly string[]) =>
      `Unknown gas utility "${id}": it does not serve ${state}.${didYouMean(closest, 'Did you mean')}`,
    utilityRequired:
      'Give "utility" when asking for utility incentives (authority_types includes "utility").',
    gasUtilityRequired:
      'Give "gas_utility" (not "none") when asking for gas utility incentives (authority_types includes "gas_utility").',
    utilityProgramsRequired:
      'Give "utility" when asking for utility programs (authority_types includes "utility").',
    zipNotFound: (zip: string) => `No location is known for ZIP code ${zip}.`,
    addressNotFound: 'The address could not be located.',
    stateNotCovered: (state: string, zip: string) =>
      `The incentives data being served does not cover ${state}, where ZIP code ${zip} is.`,
    noDataForLocation: 'There is no income or EV charger credit data for this location.',
    geocoderUnavailable: 'The address service is unavailable; retry shortly, or give a ZIP code.',
    omittedUtility: {
      utility:
        '"utility" was not given: the electric utilities below serve this location, and giving one adds to ' +
        'this answer. Give its id as "utility" for a complete answer.',
      gas_utility:
        '"gas_utility" was not given: the gas utilities below serve this location, and giving one adds to ' +
        'this answer. Give its id as "gas_utility" (or "none" without gas service) for a complete answer.',
    },
    endpointGone: 'This endpoint no longer exists.',
    pageTokenInvalid: 'page_token: is not a token this service gave; start again without page_token.',
    pageTokenStale:
      'page_token: the incentive data has changed since this token was given; start again without page_token.',
  },
  es: {
    unknownUtility: (id: string, state: string, closest: readonly string[]) =>
      `Empresa eléctrica desconocida "${id}": no da servicio en ${state}.${didYouMean(closest, '¿Quiso decir')}`,
    unknownGasUtility: (id: string, state: string, closest: readonly string[]) =>
      `Empresa de gas desconocida "${id}": no da servicio en ${state}.${didYouMean(closest, '¿Quiso decir')}`,
    utilityRequired:
      'Indique "utility" al pedir incentivos de empresas eléctricas (authority_types incluye "utility").',
    gasUtilityRequired:
      'Indique "gas_utility" (distinto de "none") al pedir incentivos de empresas de gas (authority_types incluye "gas_utility").',
    utilityProgramsRequired:
      'Indique "utility" al pedir programas de empresas eléctricas (authority_types incluye "utility").',
    zipNotFound: (zip: string) => `No se conoce ninguna ubicación para el código postal ${zip}.`,
    addressNotFound: 'No se pudo ubicar la dirección.',
    stateNotCovered: (state: string, zip: string) =>
      `Los datos de incentivos publicados no cubren ${state}, donde está el código postal ${zip}.`,
    noDataForLocation:
      'No hay datos de ingresos ni del crédito para cargadores de vehículos eléctricos para esta ubicación.',
    geocoderUnavailable:
      'El servicio de direcciones no está disponible; vuelva a intentarlo o indique un código postal.',
    omittedUtility: {
      utility:
        'No se indicó "utility": las empresas eléctricas siguientes dan servicio en esta ubicación, e indicar ' +
        'una añade a esta respuesta. Indique su id como "utility" para una respuesta completa.',
      gas_utility:
        'No se indicó "gas_utility": las empresas de gas siguientes dan servicio en esta ubicación, e indicar ' +
        'una añade a esta respuesta. Indique su id como "gas_utility" (o "none" sin servicio de gas) para una ' +
        'respuesta completa.',
    },
    endpointGone: 'Este endpoint ya no existe.',
    pageTokenInvalid: 'page_token: no es un token dado por este servicio; empiece de nuevo sin page_token.',
    pageTokenStale:
      'page_token: los datos de incentivos han cambiado desde que se dio este token; empiece de nuevo sin page_token.',
  },
} satisfies Record<Language, unknown>;

export type Messages = (typeof messages)['en'];

/** " Did you mean "a" or "b"?" for the ids closest to a mistyped one, nothing when none is close. */
function didYouMean(closest: readonly string[], question: string): string {
  if (closest.length === 0) return '';
  const quoted = closest.map((id) => `"${id}"`);
  const or = question.startsWith('¿') ? ' o ' : ' or ';
  return ` ${question} ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')}${or}${quoted.at(-1)}` : quoted[0]}?`;
}
