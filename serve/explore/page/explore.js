/* global d3, topojson, document, sessionStorage, fetch, URL, URLSearchParams, navigator, location, history */
/*
 * The county map's browser script (served as it is, no build step): draws the contiguous US counties,
 * asks the keyed API for one dataset with the visitor's key, colours each county by its figure and shows
 * a county's figures, units, sample sizes and the request that answers them. The panel shows every number
 * as the API answered it; only the legend's bounds are rounded, for reading. In English or Spanish.
 */

const KEY_STORAGE = 'electrify-api-key';
const NO_DATA_COLOUR = '#d9d9d9';
const BINS = 7;
const WIDTH = 975;
const HEIGHT = 610;

const countyCount = {
  en: (count) => `${count} ${count === 1 ? 'county' : 'counties'}`,
  es: (count) => `${count} ${count === 1 ? 'condado' : 'condados'}`,
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
      health: 'Avoided premature deaths per 100,000 households a year',
      bill: 'Median annual bill change per home, $/year (negative = savings)',
      emissions: 'Median annual emissions change per home, kgCO2e/year (negative = avoided)',
    },
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
      health: 'Muertes prematuras evitadas al año por cada 100.000 hogares',
      bill: 'Cambio mediano de la factura anual por vivienda, $/año (negativo = ahorro)',
      emissions: 'Cambio mediano de las emisiones anuales por vivienda, kgCO2e/año (negativo = evitadas)',
    },
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

/** What each choice of the "Show" menu draws: its answer, the figure of a row, the colours (darker = better). */
const DATASETS = {
  health: {
    route: 'health',
    value: (row, estimate) =>
      estimate === 'low' ? row.impact_low_per_100k_households : row.impact_per_100k_households,
    colours: d3.schemeGreens[BINS],
  },
  bill: {
    route: 'savings',
    value: (row) => row.median_bill_change,
    colours: [...d3.schemePurples[BINS]].reverse(),
  },
  emissions: {
    route: 'savings',
    value: (row) => row.median_emissions_change,
    colours: [...d3.schemeBlues[BINS]].reverse(),
  },
};

/** The figures a county's panel lists, per route: the row's field and its unit. */
const FIELDS = {
  health: (units, text) => [
    ['impact_per_100k_households', units.impact_per_100k_households],
    ['impact_low_per_100k_households', units.impact_per_100k_households],
    ['impact', units.impact],
    ['impact_low', units.impact],
    ['number_of_households', text.households],
  ],
  savings: (units, text) => [
    ['median_bill_change', units.median_bill_change],
    ['median_emissions_change', units.median_emissions_change],
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
  node.textContent = hint === null ? '' : (hint.message ?? text()[hint.key]);
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
}

/** Draws every county of the contiguous US (grey until data arrives) and the state borders. */
function drawCounties(us, contiguousStates) {
  const contiguous = (geometry) => contiguousStates.has(geometry.id.slice(0, 2));
  const counties = topojson.feature(us, {
    type: 'GeometryCollection',
    geometries: us.objects.counties.geometries.filter(contiguous),
  }).features;
  const states = { type: 'GeometryCollection', geometries: us.objects.states.geometries.filter(contiguous) };
  const projection = d3
    .geoAlbers()
    .fitSize([WIDTH, HEIGHT], { type: 'FeatureCollection', features: counties });
  const path = d3.geoPath(projection);
  const svg = d3.select('#map');
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
  const key = apiKey();
  if (key === null) {
    setStatus(text().enterKey);
    setHint(view.hint?.key === 'hintRefused' ? view.hint : { key: 'hintNoKey' });
    return;
  }
  const sequence = ++view.sequence;
  const url = requestUrl();
  setStatus(text().loading(url));
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = await response.json();
  if (sequence !== view.sequence) return;
  if (!response.ok) {
    view.answer = null;
    view.rows = new Map();
    setStatus(text().answered(response.status, body.message), true);
    if (response.status === 401) {
      sessionStorage.removeItem(KEY_STORAGE);
      setHint({ key: 'hintRefused' });
    } else {
      setHint({ message: text().answered(response.status, body.message) });
    }
  } else {
    view.answer = body;
    view.rows = new Map(body.counties.map((row) => [row.county_fips, row]));
    view.request = url;
    setStatus(text().withData(body.counties.length, url));
    setHint(null);
  }
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
function boundFormat(min, max) {
  const width = (max - min) / BINS;
  return d3.format(width > 0 ? `,.${d3.precisionFixed(width)}f` : ',.3~r');
}

/** Colours the counties by equal-width bins over the data's range, and writes the legend. */
function recolour() {
  const words = text();
  const dataset = DATASETS[element('dataset').value];
  const figures = [...view.rows.values()].map(figureOf).filter((value) => value !== null);
  const [min, max] = d3.extent(figures);
  // One value (a single county, or all alike) is one bin, of the middle colour.
  const colours = min === max ? [dataset.colours[Math.floor(BINS / 2)]] : dataset.colours;
  const scale = d3.scaleQuantize().domain([min, max]).range(colours);
  const bins =
    figures.length === 0
      ? []
      : colours.map((colour) => {
          const [low, high] = min === max ? [min, max] : scale.invertExtent(colour);
          return { min: low, max: high, colour };
        });
  const colourOf = (value) => (value === null ? NO_DATA_COLOUR : scale(value));
  const counts = new Map();
  d3.selectAll('#map .county').attr('fill', function (county) {
    const colour = colourOf(figureOf(view.rows.get(county.id)));
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
    return colour;
  });
  element('legend-title').textContent = words.legendTitles[element('dataset').value];
  const legend = element('legend');
  legend.replaceChildren();
  const format = figures.length === 0 ? null : boundFormat(min, max);
  for (const bin of bins) {
    const item = make('li', undefined, {
      class: 'legend-bin',
      'data-min': String(bin.min),
      'data-max': String(bin.max),
      'data-colour': bin.colour,
    });
    item.append(make('span', undefined, { class: 'swatch', style: `background:${bin.colour}` }));
    const bounds = bin.min === bin.max ? format(bin.min) : words.range(format(bin.min), format(bin.max));
    item.append(
      make('span', bounds, { class: 'bounds' }),
      ` (${words.countyCount(counts.get(bin.colour) ?? 0)})`,
    );
    legend.append(item);
  }
  const noData = make('li', undefined, { class: 'legend-no-data', 'data-colour': NO_DATA_COLOUR });
  noData.append(make('span', undefined, { class: 'swatch', style: `background:${NO_DATA_COLOUR}` }));
  noData.append(`${words.noData} (${words.countyCount(counts.get(NO_DATA_COLOUR) ?? 0)})`);
  legend.append(noData);
  // Tells a reader (and the page's spec) which answer the colours are of.
  element('map').setAttribute('data-request', view.answer === null ? '' : view.request);
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
  details.append(
    make(
      'h3',
      `${row?.county_name ?? county.properties.name}, ${row?.state_abbreviation ?? ''} (${county.id})`,
    ),
  );
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
