import type { Language } from '../../schemas/incentives/enums.ts';
import { precomputeProgressText, type PrecomputeProgress } from '../http/not-ready.ts';

/** Every message the health-impacts route answers with (beyond the generic validation ones), in English and Spanish. */
export const healthMessages = {
  en: {
    stateFipsFormat: (code: string) => `state_fips: "${code}" is not a 2-digit state FIPS code`,
    countyFipsFormat: (code: string) =>
      `county_fips: "${code}" is not a 3-digit county FIPS code; give ["*"] alone for every county`,
    stateFipsNotText: (index: number, given: string, code: string) =>
      `state_fips: item ${index} must be text, not ${given}: a 2-digit state FIPS code in quotes, such as "${code}"`,
    countyFipsNotText: (index: number, given: string, code: string) =>
      `county_fips: item ${index} must be text, not ${given}: a 3-digit county FIPS code in quotes, such as "${code}"`,
    stateNotModelled: (code: string, state: string) =>
      `state_fips: ${code} (${state}) is not modelled; health impacts cover the contiguous United States and DC only`,
    stateUnknown: (code: string) => `state_fips: no state of the United States has FIPS code ${code}`,
    stateWithoutData: (code: string, state: string) =>
      `state_fips: ${code} (${state}) has no health impacts in the data being served`,
    countiesNeedOneState: 'county_fips: give exactly one state in state_fips to ask for counties',
    countyUnknown: (code: string, state: string) =>
      `county_fips: ${state} has no county with FIPS code ${code}`,
    fewHouseholds: (threshold: string) =>
      `Fewer than ${threshold} households: small totals rest on survey estimates of few homes and are uncertain; read with caution.`,
    multiFamilyApproximated:
      'Rows include multi-family households (buildings of 2 or more units), whose fuel change is approximated from the county’s single-family homes scaled by RECS 2015 apartment-to-house energy use; group_by housing_type shows them apart.',
    healthUnavailable: 'Health impacts are not in the data being served yet; retry later',
    healthPrecomputing: (progress: PrecomputeProgress) =>
      `Health impacts are being precomputed (${precomputeProgressText.en(progress)}); retry later`,
    statePrecomputing: (code: string, state: string, progress: PrecomputeProgress) =>
      `state_fips: ${code} (${state}) is being precomputed (${precomputeProgressText.en(progress)}); retry later, or ask for a state already served`,
    statesPrecomputing: (served: number, progress: PrecomputeProgress) =>
      `Health impacts of ${served} ${served === 1 ? 'state is' : 'states are'} served so far and the others are being precomputed (${precomputeProgressText.en(progress)}); name states in state_fips, or retry later for all of them`,
  },
  es: {
    stateFipsFormat: (code: string) => `state_fips: "${code}" no es un código FIPS de estado de 2 dígitos`,
    countyFipsFormat: (code: string) =>
      `county_fips: "${code}" no es un código FIPS de condado de 3 dígitos; indique ["*"] solo para todos los condados`,
    stateFipsNotText: (index: number, given: string, code: string) =>
      `state_fips: el elemento ${index} debe ser texto, no ${given}: un código FIPS de estado de 2 dígitos entre comillas, como "${code}"`,
    countyFipsNotText: (index: number, given: string, code: string) =>
      `county_fips: el elemento ${index} debe ser texto, no ${given}: un código FIPS de condado de 3 dígitos entre comillas, como "${code}"`,
    stateNotModelled: (code: string, state: string) =>
      `state_fips: ${code} (${state}) no está modelado; los impactos en la salud cubren solo los Estados Unidos contiguos y DC`,
    stateUnknown: (code: string) =>
      `state_fips: ningún estado de los Estados Unidos tiene el código FIPS ${code}`,
    stateWithoutData: (code: string, state: string) =>
      `state_fips: ${code} (${state}) no tiene impactos en la salud en los datos publicados`,
    countiesNeedOneState: 'county_fips: indique exactamente un estado en state_fips para pedir condados',
    countyUnknown: (code: string, state: string) =>
      `county_fips: ${state} no tiene ningún condado con el código FIPS ${code}`,
    fewHouseholds: (threshold: string) =>
      `Menos de ${threshold} hogares: los totales pequeños se basan en estimaciones de encuesta de pocas viviendas y son inciertos; léalos con cautela.`,
    multiFamilyApproximated:
      'Las filas incluyen hogares multifamiliares (edificios de 2 o más unidades), cuyo cambio de combustible se aproxima a partir de las viviendas unifamiliares del condado, escalado por el consumo de apartamentos frente a casas (RECS 2015); group_by housing_type los muestra aparte.',
    healthUnavailable:
      'Los impactos en la salud aún no están en los datos publicados; vuelva a intentarlo más tarde',
    healthPrecomputing: (progress: PrecomputeProgress) =>
      `Los impactos en la salud se están precalculando (${precomputeProgressText.es(progress)}); vuelva a intentarlo más tarde`,
    statePrecomputing: (code: string, state: string, progress: PrecomputeProgress) =>
      `state_fips: ${code} (${state}) se está precalculando (${precomputeProgressText.es(progress)}); vuelva a intentarlo más tarde o pida un estado ya servido`,
    statesPrecomputing: (served: number, progress: PrecomputeProgress) =>
      `Por ahora se sirven los impactos en la salud de ${served} ${served === 1 ? 'estado' : 'estados'} y los demás se están precalculando (${precomputeProgressText.es(progress)}); indique estados en state_fips o vuelva a intentarlo más tarde para todos`,
  },
} satisfies Record<Language, unknown>;

export type HealthMessages = (typeof healthMessages)['en'];
