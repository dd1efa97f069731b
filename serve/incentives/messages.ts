import type { Language } from '../../schemas/incentives/enums.ts';

/** Every message the incentives routes answer with (the validation ones shared by every route), in English and Spanish. */
export const messages = {
  en: {
    required: 'is required',
    oneLocation: 'give exactly one of zip and address',
    mustBe: (what: string) => `must be ${what}`,
    oneOf: (values: readonly unknown[]) => `must be one of: ${values.join(', ')}`,
    atLeast: (n: number | bigint) => `must be at least ${n}`,
    atMost: (n: number | bigint) => `must be at most ${n}`,
    atMostValues: (n: number | bigint) => `must have at most ${n} values`,
    unknownField: 'is not a field of this request',
    object: 'a JSON object',
    length: (n: number | bigint) => `must be exactly ${n} characters long`,
    notEmpty: 'must not be empty',
    unique: 'must not repeat a value',
    integer: 'an integer',
    boolean: 'true or false',
    text: 'a single text value',
    list: 'a list',
    invalid: 'is invalid',
    unknownUtility: (id: string, state: string) => `Unknown utility "${id}": it does not serve ${state}.`,
    unknownGasUtility: (id: string, state: string) =>
      `Unknown gas utility "${id}": it does not serve ${state}.`,
    utilityRequired:
      'Give "utility" when asking for utility incentives (authority_types includes "utility").',
    gasUtilityRequired:
      'Give "gas_utility" (not "none") when asking for gas utility incentives (authority_types includes "gas_utility").',
    utilityProgramsRequired:
      'Give "utility" when asking for utility programs (authority_types includes "utility").',
    zipNotFound: (zip: string) => `No location is known for ZIP code ${zip}.`,
    addressNotFound: 'The address could not be located.',
    noDataForLocation: 'There is no income or EV charger credit data for this location.',
    geocoderUnavailable: 'The address service is unavailable; retry shortly, or give a ZIP code.',
    endpointGone: 'This endpoint no longer exists.',
  },
  es: {
    required: 'es obligatorio',
    oneLocation: 'indique exactamente uno de zip y address',
    mustBe: (what: string) => `debe ser ${what}`,
    oneOf: (values: readonly unknown[]) => `debe ser uno de: ${values.join(', ')}`,
    atLeast: (n: number | bigint) => `debe ser como mínimo ${n}`,
    atMost: (n: number | bigint) => `debe ser como máximo ${n}`,
    atMostValues: (n: number | bigint) => `debe tener como máximo ${n} valores`,
    unknownField: 'no es un campo de esta solicitud',
    object: 'un objeto JSON',
    length: (n: number | bigint) => `debe tener exactamente ${n} caracteres`,
    notEmpty: 'no puede estar vacío',
    unique: 'no puede repetir valores',
    integer: 'un número entero',
    boolean: 'true o false',
    text: 'un único valor de texto',
    list: 'una lista',
    invalid: 'no es válido',
    unknownUtility: (id: string, state: string) =>
      `Empresa eléctrica desconocida "${id}": no da servicio en ${state}.`,
    unknownGasUtility: (id: string, state: string) =>
      `Empresa de gas desconocida "${id}": no da servicio en ${state}.`,
    utilityRequired:
      'Indique "utility" al pedir incentivos de empresas eléctricas (authority_types incluye "utility").',
    gasUtilityRequired:
      'Indique "gas_utility" (distinto de "none") al pedir incentivos de empresas de gas (authority_types incluye "gas_utility").',
    utilityProgramsRequired:
      'Indique "utility" al pedir programas de empresas eléctricas (authority_types incluye "utility").',
    zipNotFound: (zip: string) => `No se conoce ninguna ubicación para el código postal ${zip}.`,
    addressNotFound: 'No se pudo ubicar la dirección.',
    noDataForLocation:
      'No hay datos de ingresos ni del crédito para cargadores de vehículos eléctricos para esta ubicación.',
    geocoderUnavailable:
      'El servicio de direcciones no está disponible; vuelva a intentarlo o indique un código postal.',
    endpointGone: 'Este endpoint ya no existe.',
  },
} satisfies Record<Language, unknown>;

export type Messages = (typeof messages)['en'];

/** The language a request asked for, read leniently (an invalid value falls back to English). */
export const languageOf = (query: Record<string, unknown>): Language => {
  const value = Array.isArray(query.language) ? query.language[0] : query.language;
  return value === 'es' ? 'es' : 'en';
};
