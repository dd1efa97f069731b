/* global d3, topojson, document, sessionStorage, fetch, URL, URLSearchParams, navigator, location, history, setTimeout, clearTimeout */
/*
 * The county map's browser script (served as it is, no build step): draws the contiguous US counties,
 * asks the keyed API for one dataset with the visitor's key, colours each county by its figure and shows
 * a county's figures, units, sample sizes and the request that answers them. The panel shows every number
 * as the API answered it; only the legend's bounds are rounded, for reading, and units are named in words
 * (the unit's name changes, never the figure). Changes (savings) are drawn on a scale centred on zero.
 * While the server precomputes, states it has not served yet are drawn as being computed, not as lacking
 * data. In English or Spanish.
 */

const KEY_STORAGE = 'electrify-api-key';
const NO_DATA_COLOUR = '#d9d9d9';
/** A state still being computed: hatched (the pattern drawn in the map's defs). */
const COMPUTING_FILL = 'url(#computing)';
/** A change of exactly 0: the diverging scales' neutral midpoint. */
const ZERO_COLOUR = '#f7f7f7';
/** Bins of the sequential (health) scale, and of each side of the diverging (savings) scales. */
const BINS = 7;
const SIDE_BINS = 4;
const WIDTH = 975;
const HEIGHT = 610;

const countyCount = {
  en: (count) => `${count} ${count === 1 ? 'county' : 'counties'}`,
  es: (count) => `${count} ${count === 1 ? 'condado' : 'condados'}`,
};

/** A time left as the server says it: tens of seconds under a minute, else whole minutes. */
const timeLeft = (seconds) =>
  seconds < 60 ? `${Math.max(10, Math.ceil(seconds / 10) * 10)} s` : `${Math.ceil(seconds / 60)} min`;

/** States still being computed, named when they are few enough to read over the map. */
const stateList = {
  en: (names) =>
    names.length === 1
      ? `1 state is still being computed (${names[0]})`
      : names.length <= 5
        ? `${names.length} states are still being computed (${names.join(', ')})`
        : `${names.length} states are still being computed`,
  es: (names) =>
    names.length === 1
      ? `Aún se está calculando 1 estado (${names[0]})`
      : names.length <= 5
        ? `Aún se están calculando ${names.length} estados (${names.join(', ')})`
        : `Aún se están calculando ${names.length} estados`,
};

/** The page's words in each language; upgrade and fuel names come from the server (options.json). */
const TEXT = {
  en: {
    title: 'County map',
    intro: "Health benefits and savings of household electrification by county, from this server's API",
    apiReference: 'API reference',
    keyNote: 'Data requests use your API key, kept for this browser session only.',
    apiKey: 'API key',
    useKey: 'Use key',
    forgetKey: 'Forget key',
    language: 'Language',
    show: 'Show',
    estimate: 'Estimate',
    upgrade: 'Upgrade',
    heatingFuel: 'Heating fuel',
    waterHeaterFuel: 'Water heater fuel',
    drawnByModel: 'drawn by the model',
    mapLabel: 'County choropleth of the contiguous US',
    datasets: {
      health: 'Health: avoided premature deaths per 100,000 households',
      bill: 'Savings: median annual bill change per home',
      emissions: 'Savings: median annual emissions change per home',
    },
    estimates: { central: 'Central (Pope et al. 2019)', low: 'Low (Wu et al. 2020)' },
    legendTitles: {
      health: 'Avoided premature deaths',
      bill: 'Median change of a home’s annual energy bill',
      emissions: 'Median change of a home’s annual emissions',
    },
    /** The API's units (`units` of its answers) as people read them. */
    units: {
      deaths_per_100k_households_per_year: 'deaths avoided per 100,000 households a year',
      deaths_per_year: 'deaths avoided a year',
      '$/year': '$ per year',
      'kgCO2e/year': 'kg CO₂e per year',
    },
    /** The two sides of a change's scale, and its midpoint. */
    sides: {
      bill: { savings: 'Savings: the bill goes down', increase: 'Increase: the bill goes up' },
      emissions: { savings: 'Savings: emissions go down', increase: 'Increase: emissions go up' },
    },
    zero: 'No change',
    fields: {
      impact_per_100k_households: 'Avoided deaths per 100,000 households, central',
      impact_low_per_100k_households: 'Avoided deaths per 100,000 households, low',
      impact: 'Avoided deaths, central (Pope et al. 2019)',
      impact_low: 'Avoided deaths, low (Wu et al. 2020)',
      number_of_households: 'Households (health rollup)',
      median_bill_change: 'Median bill change per home',
      median_emissions_change: 'Median emissions change per home',
      num_samples: 'Sample homes',
      num_excluded_samples: 'Sample homes the upgrade does not apply to',
      supported: 'Fuels common enough to estimate',
    },
    households: 'households',
    homes: 'homes',
    countyCount: countyCount.en,
    range: (low, high) => `${low} to ${high}`,
    noData: 'No data',
    computing: 'Still being computed',
    fips: (code) => `FIPS code ${code}`,
    computingNote: (names, seconds) =>
      `${stateList.en(names)}: ${names.length === 1 ? 'it is' : 'they are'} hatched on the map and will appear when ` +
      `ready${seconds === null ? '' : ` (about ${timeLeft(seconds)} left)`}; the page checks again by itself.`,
    computingCounty: (state) =>
      `Not computed yet: ${state} is still being precomputed on the server; its figures will appear here when ready.`,
    hintComputing: (seconds) =>
      `These figures are still being computed on the server and will appear here when ready` +
      `${seconds === null ? '' : ` (about ${timeLeft(seconds)} left)`}; the page tries again by itself.`,
    enterKey: 'Enter your API key to load data.',
    hintNoKey:
      'Enter an API key above to colour the map. The first npm start printed one; npm run keys -- create makes another.',
    hintRefused: 'The API refused this key: enter another above (npm run keys -- create makes one).',
    loading: (url) => `Loading GET ${url} …`,
    answered: (status, message) => `The API answered ${status}: ${message}`,
    withData: (count, url) => `${countyCount.en(count)} with data, from GET ${url}`,
    cannotDraw: (message) => `The map could not be drawn: ${message}`,
    hover: 'Hover over a county for its figures; click to keep them here.',
    noDataLoaded: 'No data loaded.',
    noHealth: 'No data: the health rollup has no households of this county.',
    noSavings:
      'No data: this county’s cluster for these fuels is not precomputed (GET /api/v1/rem/address computes it for an address there).',
    fromRow: 'From the row with this county_fips in the answer to:',
    samePost: 'The same impact and impact_low, with the model label, from:',
    fullStatistics:
      'The full statistics: GET /api/v1/rem/address with an address in this county and the same fuels.',
  },
  es: {
    title: 'Mapa por condado',
    intro:
      'Beneficios para la salud y ahorros de la electrificación de los hogares por condado, de la API de este servidor',
    apiReference: 'referencia de la API',
    keyNote: 'Las consultas de datos usan su clave de API, guardada solo durante esta sesión del navegador.',
    apiKey: 'Clave de API',
    useKey: 'Usar clave',
    forgetKey: 'Olvidar clave',
    language: 'Idioma',
    show: 'Mostrar',
    estimate: 'Estimación',
    upgrade: 'Mejora',
    heatingFuel: 'Combustible de calefacción',
    waterHeaterFuel: 'Combustible del calentador de agua',
    drawnByModel: 'elegido por el modelo',
    mapLabel: 'Mapa de coropletas por condado de los EE. UU. contiguos',
    datasets: {
      health: 'Salud: muertes prematuras evitadas por cada 100.000 hogares',
      bill: 'Ahorros: cambio mediano de la factura anual por vivienda',
      emissions: 'Ahorros: cambio mediano de las emisiones anuales por vivienda',
    },
    estimates: { central: 'Central (Pope et al. 2019)', low: 'Baja (Wu et al. 2020)' },
    legendTitles: {
      health: 'Muertes prematuras evitadas',
      bill: 'Cambio mediano de la factura anual de energía por vivienda',
      emissions: 'Cambio mediano de las emisiones anuales por vivienda',
    },
    /** Las unidades de la API (`units` de sus respuestas) como se leen. */
    units: {
      deaths_per_100k_households_per_year: 'muertes evitadas por cada 100.000 hogares al año',
      deaths_per_year: 'muertes evitadas al año',
      '$/year': '$ al año',
      'kgCO2e/year': 'kg CO₂e al año',
    },
    sides: {
      bill: { savings: 'Ahorro: la factura baja', increase: 'Aumento: la factura sube' },
      emissions: { savings: 'Ahorro: las emisiones bajan', increase: 'Aumento: las emisiones suben' },
    },
    zero: 'Sin cambio',
    fields: {
      impact_per_100k_households: 'Muertes evitadas por cada 100.000 hogares, central',
      impact_low_per_100k_households: 'Muertes evitadas por cada 100.000 hogares, baja',
      impact: 'Muertes evitadas, central (Pope et al. 2019)',
      impact_low: 'Muertes evitadas, baja (Wu et al. 2020)',
      number_of_households: 'Hogares (agregado de salud)',
      median_bill_change: 'Cambio mediano de la factura por vivienda',
      median_emissions_change: 'Cambio mediano de las emisiones por vivienda',
      num_samples: 'Viviendas de la muestra',
      num_excluded_samples: 'Viviendas de la muestra a las que la mejora no se aplica',
      supported: 'Combustibles lo bastante comunes para estimar',
    },
    households: 'hogares',
    homes: 'viviendas',
    countyCount: countyCount.es,
    range: (low, high) => `${low} a ${high}`,
    noData: 'Sin datos',
    computing: 'Aún en cálculo',
    fips: (code) => `Código FIPS ${code}`,
    computingNote: (names, seconds) =>
      `${stateList.es(names)}: ${names.length === 1 ? 'aparece rayado' : 'aparecen rayados'} en el mapa y se ` +
      `mostrarán cuando estén listos${seconds === null ? '' : ` (quedan unos ${timeLeft(seconds)})`}; la página ` +
      'vuelve a comprobarlo sola.',
    computingCounty: (state) =>
      `Aún sin calcular: ${state} se está precalculando en el servidor; sus cifras aparecerán aquí cuando estén listas.`,
    hintComputing: (seconds) =>
      `Estas cifras aún se están calculando en el servidor y aparecerán aquí cuando estén listas` +
      `${seconds === null ? '' : ` (quedan unos ${timeLeft(seconds)})`}; la página vuelve a intentarlo sola.`,
    enterKey: 'Introduzca su clave de API para cargar los datos.',
    hintNoKey:
      'Introduzca una clave de API arriba para colorear el mapa. El primer npm start imprimió una; npm run keys -- create crea otra.',
    hintRefused: 'La API rechazó esta clave: introduzca otra arriba (npm run keys -- create crea una).',
    loading: (url) => `Cargando GET ${url} …`,
    answered: (status, message) => `La API respondió ${status}: ${message}`,
    withData: (count, url) => `${countyCount.es(count)} con datos, de GET ${url}`,
    cannotDraw: (message) => `No se pudo dibujar el mapa: ${message}`,
    hover: 'Pase el cursor sobre un condado para ver sus cifras; haga clic para fijarlas aquí.',
    noDataLoaded: 'No hay datos cargados.',
    noHealth: 'Sin datos: el agregado de salud no tiene hogares de este condado.',
    noSavings:
      'Sin datos: el grupo de este condado para estos combustibles no está precalculado (GET /api/v1/rem/address lo calcula para una dirección allí).',
    fromRow: 'De la fila con este county_fips en la respuesta a:',
    samePost: 'Los mismos impact e impact_low, con la descripción del modelo, de:',
    fullStatistics:
      'Las estadísticas completas: GET /api/v1/rem/address con una dirección de este condado y los mismos combustibles.',
  },
};

/**
 * What each choice of the "Show" menu draws: its answer, the figure of a row and its unit, the colours.
 * Health benefits are never negative: a sequential scale (darker = more deaths avoided). Changes are
 * diverging, centred on zero: savings (negative) in one hue, increases in another, darker further from 0.
 */
const DATASETS = {
  health: {
    route: 'health',
    value: (row, estimate) =>
      estimate === 'low' ? row.impact_low_per_100k_households : row.impact_per_100k_households,
    unit: 'impact_per_100k_households',
    colours: d3.schemeGreens[BINS],
  },
  bill: {
    route: 'savings',
    value: (row) => row.median_bill_change,
    unit: 'median_bill_change',
    diverging: true,
    // Teal for savings, brown for increases.
    colours: [...d3.schemeBrBG[2 * SIDE_BINS]].reverse(),
  },
  emissions: {
    route: 'savings',
    value: (row) => row.median_emissions_change,
    unit: 'median_emissions_change',
    diverging: true,
    // Green for emissions avoided, purple for more.
    colours: [...d3.schemePRGn[2 * SIDE_BINS]].reverse(),
  },
};

/** The API's unit of each figure the map draws, before an answer says it (they are the same). */
const UNITS = {
  impact_per_100k_households: 'deaths_per_100k_households_per_year',
  impact: 'deaths_per_year',
  median_bill_change: '$/year',
  median_emissions_change: 'kgCO2e/year',
};

/** A unit in the page's language; an identifier the page has no words for is shown as it is. */
const unitName = (unit, words) => words.units[unit] ?? unit;

/** The figures a county's panel lists, per route: the row's field and its unit. */
const FIELDS = {
  health: (units, text) => [
    ['impact_per_100k_households', unitName(units.impact_per_100k_households, text)],
    ['impact_low_per_100k_households', unitName(units.impact_per_100k_households, text)],
    ['impact', unitName(units.impact, text)],
    ['impact_low', unitName(units.impact, text)],
    ['number_of_households', text.households],
  ],
  savings: (units, text) => [
    ['median_bill_change', unitName(units.median_bill_change, text)],
    ['median_emissions_change', unitName(units.median_emissions_change, text)],
    ['num_samples', text.homes],
    ['num_excluded_samples', text.homes],
    ['supported', ''],
  ],
};

const element = (id) => document.getElementById(id);
const make = (tag, text, attributes = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
};

const view = {
  options: null,
  /** The answer being drawn, its rows by 5-digit FIPS, and the request that gave it. */
  answer: null,
  rows: new Map(),
  request: null,
  selected: null,
  shown: null,
  /** What the map says over itself when it has nothing to colour: why, and what to do (null: nothing). */
  hint: null,
  /** Counts requests, so that an answer arriving after a newer request is dropped. */
  sequence: 0,
  /** State FIPS → name, from the county shapes. */
  stateNames: new Map(),
  /** The states the server is still computing for the answer drawn (FIPS), and the time it says it needs. */
  computing: new Set(),
  secondsLeft: null,
  /** The next look, while the server is still computing. */
  retry: null,
};

const language = () => element('language').value;
const text = () => TEXT[language()];

/** ?language=es, else the browser's first preference of the two languages, else English. */
function initialLanguage() {
  const asked = new URLSearchParams(location.search).get('language');
  if (asked === 'en' || asked === 'es') return asked;
  const preferred = navigator.languages.map((tag) => tag.slice(0, 2)).find((tag) => tag in TEXT);
  return preferred ?? 'en';
}

function setStatus(message, isError = false) {
  const status = element('status');
  status.textContent = message;
  status.className = isError ? 'error' : '';
}

/** Says over the map what to do before it can be coloured; `null` hides it. */
function setHint(hint) {
  view.hint = hint;
  const node = element('map-hint');
  node.hidden = hint === null;
  node.textContent =
    hint === null
      ? ''
      : (hint.message ?? (hint.seconds === undefined ? text()[hint.key] : text()[hint.key](hint.seconds)));
}

/** Says on the map which states are still being computed and will appear (hidden when none is). */
function writeComputingNote() {
  const node = element('map-note');
  const names = [...view.computing].map((fips) => view.stateNames.get(fips) ?? fips).sort();
  node.hidden = names.length === 0;
  node.textContent = names.length === 0 ? '' : text().computingNote(names, view.secondsLeft);
}

/** How far the server's precompute is (/healthz: public, never cached), or null when none runs. */
async function precomputeProgress() {
  try {
    return (await (await fetch('/healthz')).json()).precompute ?? null;
  } catch {
    return null;
  }
}

/** The states whose figures for the chosen menus this server's precompute builds (FIPS). */
function precomputedStates() {
  const states = view.options.precomputed_states;
  if (DATASETS[element('dataset').value].route === 'health') return new Set(states.health);
  // The clusters with a drawn water-heater fuel are built for the health states too.
  const drawn = element('water-heater-fuel').value === '';
  return new Set([...states.savings, ...(drawn ? states.health : [])]);
}

/** Looks again in `seconds` (5 s to 5 min), while the server is still computing. */
function retryIn(seconds) {
  view.retry = setTimeout(load, Math.min(300, Math.max(5, seconds ?? 30)) * 1000);
}

const apiKey = () => sessionStorage.getItem(KEY_STORAGE);

/** Fills a menu with its choices, named in the page's language, keeping what was chosen. */
function fillSelect(id, choices) {
  const select = element(id);
  const chosen = select.value;
  select.replaceChildren(...choices.map(([value, label]) => make('option', label, { value })));
  if (choices.some(([value]) => value === chosen)) select.value = chosen;
}

/** Writes every word of the page in its language. */
function writeTexts() {
  const words = text();
  document.documentElement.lang = language();
  for (const node of document.querySelectorAll('[data-text]')) node.textContent = words[node.dataset.text];
  element('map').setAttribute('aria-label', words.mapLabel);
  const { names } = view.options;
  fillSelect('dataset', Object.entries(words.datasets));
  fillSelect('estimate', Object.entries(words.estimates));
  fillSelect(
    'upgrade',
    view.options.upgrades.map((upgrade) => [upgrade, names.upgrades[upgrade][language()]]),
  );
  const fuels = view.options.heating_fuels.map((fuel) => [fuel, names.fuels[fuel][language()]]);
  fillSelect('heating-fuel', fuels);
  fillSelect('water-heater-fuel', [['', words.drawnByModel], ...fuels]);
  setHint(view.hint);
  writeComputingNote();
}

/** Draws every county of the contiguous US (grey until data arrives) and the state borders. */
function drawCounties(us, contiguousStates) {
  const contiguous = (geometry) => contiguousStates.has(geometry.id.slice(0, 2));
  const counties = topojson.feature(us, {
    type: 'GeometryCollection',
    geometries: us.objects.counties.geometries.filter(contiguous),
  }).features;
  const states = { type: 'GeometryCollection', geometries: us.objects.states.geometries.filter(contiguous) };
  for (const state of states.geometries) view.stateNames.set(state.id, state.properties.name);
  const projection = d3
    .geoAlbers()
    .fitSize([WIDTH, HEIGHT], { type: 'FeatureCollection', features: counties });
  const path = d3.geoPath(projection);
  const svg = d3.select('#map');
  // The hatching of a state still being computed.
  const hatch = svg
    .append('defs')
    .append('pattern')
    .attr('id', 'computing')
    .attr('patternUnits', 'userSpaceOnUse')
    .attr('width', 5)
    .attr('height', 5)
    .attr('patternTransform', 'rotate(45)');
  hatch.append('rect').attr('width', 5).attr('height', 5).attr('fill', '#eeeeee');
  hatch.append('line').attr('y2', 5).attr('stroke', '#9e9e9e').attr('stroke-width', 2.5);
  svg
    .append('g')
    .selectAll('path')
    .data(counties)
    .join('path')
    .attr('class', 'county')
    .attr('data-fips', (county) => county.id)
    .attr('d', path)
    .attr('fill', NO_DATA_COLOUR)
    .on('mouseenter', (_event, county) => {
      if (view.selected === null) showDetails(county);
    })
    .on('click', (event, county) => select(county, event.currentTarget));
  svg
    .append('path')
    .attr('class', 'states')
    .attr('d', path(topojson.mesh(us, states, (a, b) => a !== b)));
}

function select(county, node) {
  d3.selectAll('#map .county.selected').classed('selected', false);
  if (view.selected?.id === county.id) {
    view.selected = null;
    return;
  }
  view.selected = county;
  d3.select(node).classed('selected', true).raise();
  showDetails(county);
}

/** The request for the chosen dataset, as a URL of this server (in the page's language when not English). */
function requestUrl() {
  const dataset = DATASETS[element('dataset').value];
  const query = new URLSearchParams({ upgrade: element('upgrade').value });
  if (dataset.route === 'savings') {
    query.set('heating_fuel', element('heating-fuel').value);
    const waterHeater = element('water-heater-fuel').value;
    if (waterHeater !== '') query.set('water_heater_fuel', waterHeater);
  }
  if (language() !== 'en') query.set('language', language());
  return `${view.options.routes[dataset.route]}?${query}`;
}

function showControls() {
  const route = DATASETS[element('dataset').value].route;
  element('estimate-control').hidden = route !== 'health';
  element('heating-fuel-control').hidden = route !== 'savings';
  element('water-heater-fuel-control').hidden = route !== 'savings';
}

async function load() {
  showControls();
  clearTimeout(view.retry);
  const key = apiKey();
  if (key === null) {
    view.computing = new Set();
    writeComputingNote();
    setStatus(text().enterKey);
    setHint(view.hint?.key === 'hintRefused' ? view.hint : { key: 'hintNoKey' });
    return;
  }
  const sequence = ++view.sequence;
  const url = requestUrl();
  setStatus(text().loading(url));
  const [response, precompute] = await Promise.all([
    fetch(url, { headers: { authorization: `Bearer ${key}` } }),
    precomputeProgress(),
  ]);
  const body = await response.json();
  if (sequence !== view.sequence) return;
  view.computing = new Set();
  view.secondsLeft = precompute?.secondsLeft ?? null;
  if (!response.ok) {
    view.answer = null;
    view.rows = new Map();
    setStatus(text().answered(response.status, body.message), true);
    if (response.status === 401) {
      sessionStorage.removeItem(KEY_STORAGE);
      setHint({ key: 'hintRefused' });
    } else if (response.status === 503 && precompute !== null) {
      // The map's routes answer 503 only when the snapshot lacks their family: while a precompute runs,
      // every state it will cover is on its way.
      view.computing = precomputedStates();
      const retryAfter = Number(response.headers.get('retry-after'));
      setHint({ key: 'hintComputing', seconds: view.secondsLeft });
      retryIn(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : view.secondsLeft);
    } else {
      setHint({ message: text().answered(response.status, body.message) });
    }
  } else {
    view.answer = body;
    view.rows = new Map(body.counties.map((row) => [row.county_fips, row]));
    view.request = url;
    if (precompute !== null) {
      // A state of the precompute without a single county in the answer has not been served yet.
      const served = new Set(body.counties.map((row) => row.county_fips.slice(0, 2)));
      view.computing = new Set([...precomputedStates()].filter((fips) => !served.has(fips)));
      if (view.computing.size > 0) retryIn(view.secondsLeft);
    }
    setStatus(text().withData(body.counties.length, url));
    setHint(null);
  }
  writeComputingNote();
  recolour();
  if (view.shown !== null) showDetails(view.shown);
}

/** The figure a row has in the chosen dataset, or null. */
function figureOf(row) {
  if (row === undefined) return null;
  const value = DATASETS[element('dataset').value].value(row, element('estimate').value);
  return Number.isFinite(value) ? value : null;
}

/**
 * Legend bounds rounded for reading: as many decimals as a bin's width needs to tell one bound from the
 * next (three significant digits for a single value), and no "−0".
 */
function boundFormat(min, max, bins) {
  const width = (max - min) / bins;
  return d3.format(width > 0 ? `,.${d3.precisionFixed(width)}f` : ',.3~r');
}

/** Equal-width bins from `low` to `high`, one per colour (one bin, of the middle colour, when they are equal). */
function equalBins(low, high, colours, side) {
  const used = low === high ? [colours[Math.floor(colours.length / 2)]] : colours;
  const scale = d3.scaleQuantize().domain([low, high]).range(used);
  const bins = used.map((colour) => {
    const [min, max] = low === high ? [low, high] : scale.invertExtent(colour);
    return { min, max, colour, side };
  });
  return { scale, bins };
}

/**
 * The scale of the chosen dataset over its figures: its domain, bins (in order, low to high) and the colour
 * of a figure. Health: equal-width bins over the figures' range. Changes: symmetric around zero, the
 * domain [−m, m] with m the largest |figure|, SIDE_BINS bins on each side of 0 (0 is a bound of both
 * middle bins) and a figure of exactly 0 the neutral midpoint.
 */
function scaleOf(dataset, figures) {
  if (figures.length === 0) return { domain: null, bins: [], colourOf: () => NO_DATA_COLOUR, format: null };
  if (!dataset.diverging) {
    const [min, max] = d3.extent(figures);
    const { scale, bins } = equalBins(min, max, dataset.colours, null);
    return {
      domain: [min, max],
      bins,
      colourOf: (value) => scale(value),
      format: boundFormat(min, max, bins.length),
    };
  }
  const m = d3.max(figures, Math.abs);
  const zero = { min: 0, max: 0, colour: ZERO_COLOUR, side: 'zero' };
  if (m === 0)
    return { domain: [0, 0], bins: [zero], colourOf: () => ZERO_COLOUR, format: d3.format(',.3~r') };
  const savings = equalBins(-m, 0, dataset.colours.slice(0, SIDE_BINS), 'savings');
  const increase = equalBins(0, m, dataset.colours.slice(SIDE_BINS), 'increase');
  const colourOf = (value) =>
    value === 0 ? ZERO_COLOUR : value < 0 ? savings.scale(value) : increase.scale(value);
  return {
    domain: [-m, m],
    bins: [...savings.bins, zero, ...increase.bins],
    colourOf,
    format: boundFormat(-m, m, 2 * SIDE_BINS),
  };
}

/** Colours the counties by the chosen dataset's scale, and writes the legend. */
function recolour() {
  const words = text();
  const name = element('dataset').value;
  const dataset = DATASETS[name];
  const figures = [...view.rows.values()].map(figureOf).filter((value) => value !== null);
  const { domain, bins, colourOf, format } = scaleOf(dataset, figures);
  const fillOf = (county) => {
    const value = figureOf(view.rows.get(county.id));
    if (value !== null) return colourOf(value);
    return view.computing.has(county.id.slice(0, 2)) ? COMPUTING_FILL : NO_DATA_COLOUR;
  };
  const counts = new Map();
  d3.selectAll('#map .county').attr('fill', function (county) {
    const fill = fillOf(county);
    counts.set(fill, (counts.get(fill) ?? 0) + 1);
    return fill;
  });
  element('legend-title').textContent = words.legendTitles[name];
  element('legend-unit').textContent = unitName(
    view.answer?.units?.[dataset.unit] ?? UNITS[dataset.unit],
    words,
  );
  const legend = element('legend');
  legend.replaceChildren();
  legend.setAttribute('data-domain', domain === null ? '' : JSON.stringify(domain));
  /** A legend entry: its swatch (a colour, or a class that draws it), its label and how many counties. */
  const entry = (attributes, swatch, label, count) => {
    const item = make('li', undefined, attributes);
    item.append(make('span', undefined, { class: 'swatch', ...swatch }));
    item.append(label, ` (${words.countyCount(count)})`);
    return item;
  };
  const colourSwatch = (colour) => ({ style: `background:${colour}` });
  for (const [index, bin] of bins.entries()) {
    const count = counts.get(bin.colour) ?? 0;
    if (bin.side !== null && bin.side !== 'zero' && bins[index - 1]?.side !== bin.side)
      legend.append(make('li', words.sides[name][bin.side], { class: `legend-side ${bin.side}` }));
    const bounds =
      bin.side === 'zero'
        ? `0: ${words.zero}`
        : bin.min === bin.max
          ? format(bin.min)
          : words.range(format(bin.min), format(bin.max));
    const attributes = {
      class: bin.side === 'zero' ? 'legend-bin legend-zero' : 'legend-bin',
      'data-min': String(bin.min),
      'data-max': String(bin.max),
      'data-colour': bin.colour,
    };
    legend.append(
      entry(attributes, colourSwatch(bin.colour), make('span', bounds, { class: 'bounds' }), count),
    );
  }
  if (view.computing.size > 0) {
    const attributes = { class: 'legend-computing', 'data-colour': COMPUTING_FILL };
    legend.append(
      entry(attributes, { class: 'swatch computing' }, words.computing, counts.get(COMPUTING_FILL) ?? 0),
    );
  }
  const noData = { class: 'legend-no-data', 'data-colour': NO_DATA_COLOUR };
  legend.append(entry(noData, colourSwatch(NO_DATA_COLOUR), words.noData, counts.get(NO_DATA_COLOUR) ?? 0));
  // Tells a reader (and the page's spec) which answer the colours are of.
  element('map').setAttribute('data-request', view.answer === null ? '' : view.request);
}

/** A county as people name it: its name and state ("Chase County, Kansas"), never a bare code. */
function countyTitle(county, row) {
  const name = row?.county_name ?? view.options.county_names[county.id] ?? county.properties.name;
  const state = view.stateNames.get(county.id.slice(0, 2));
  return state === undefined ? name : `${name}, ${state}`;
}

/** The county's figures, as the API answered them, and the requests that give them. */
function showDetails(county) {
  view.shown = county;
  const words = text();
  const details = element('details');
  details.replaceChildren();
  if (county === null) {
    details.append(make('p', words.hover));
    return;
  }
  const row = view.rows.get(county.id);
  details.append(make('h3', countyTitle(county, row)), make('p', words.fips(county.id), { class: 'fips' }));
  const state = county.id.slice(0, 2);
  if (row === undefined && view.computing.has(state)) {
    details.append(
      make('p', words.computingCounty(view.stateNames.get(state) ?? state), { class: 'computing' }),
    );
    return;
  }
  if (view.answer === null) {
    details.append(make('p', words.noDataLoaded));
    return;
  }
  const route = DATASETS[element('dataset').value].route;
  if (row === undefined) {
    details.append(make('p', route === 'health' ? words.noHealth : words.noSavings, { class: 'no-data' }));
    return;
  }
  const list = make('dl');
  for (const [field, unit] of FIELDS[route](view.answer.units, words)) {
    list.append(make('dt', words.fields[field]));
    const value = make('dd');
    value.append(make('span', String(row[field]), { 'data-field': field }), ` ${unit}`);
    list.append(value);
  }
  details.append(list);
  details.append(make('p', words.fromRow));
  details.append(make('code', `GET ${view.request}`, { class: 'request' }));
  if (route === 'health') {
    const body = {
      metrics: [view.answer.metric],
      upgrade: [view.answer.upgrade],
      state_fips: [county.id.slice(0, 2)],
      county_fips: [county.id.slice(2)],
    };
    details.append(make('p', words.samePost));
    details.append(make('code', `POST /api/v2/etools/health-impacts ${JSON.stringify(body)}`));
  } else {
    details.append(make('p', words.fullStatistics));
  }
}

/** Redraws every word in the chosen language, keeps it in the address, and asks the API again in it. */
function changeLanguage() {
  const url = new URL(location.href);
  url.searchParams.set('language', language());
  history.replaceState(null, '', url);
  writeTexts();
  showDetails(view.shown);
  load();
}

async function main() {
  element('language').value = initialLanguage();
  const [options, us] = await Promise.all(
    ['/explore/options.json', '/explore/assets/counties-10m.json'].map(async (url) =>
      (await fetch(url)).json(),
    ),
  );
  view.options = options;
  writeTexts();
  showDetails(null);
  drawCounties(us, new Set(options.contiguous_state_fips));
  element('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY_STORAGE, element('api-key').value.trim());
    element('api-key').value = '';
    setHint(null);
    load();
  });
  element('forget-key').addEventListener('click', () => {
    sessionStorage.removeItem(KEY_STORAGE);
    view.answer = null;
    view.rows = new Map();
    setHint(null);
    recolour();
    load();
  });
  element('language').addEventListener('change', changeLanguage);
  element('controls').addEventListener('change', load);
  recolour();
  await load();
}

main().catch((error) => setStatus(text().cannotDraw(error.message), true));
