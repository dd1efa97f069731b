/* global d3, topojson, document, sessionStorage, fetch, URLSearchParams */
/*
 * The county map's browser script (served as it is, no build step): draws the contiguous US counties from
 * us-atlas, asks the keyed API for one dataset with the visitor's key, colours each county by its figure
 * and shows a county's figures, units, sample sizes and the request that answers them. Every number shown
 * is the API's own, unchanged, so the page and the API agree exactly.
 */

const KEY_STORAGE = 'electrify-api-key';
const NO_DATA_COLOUR = '#d9d9d9';
const BINS = 7;
const WIDTH = 975;
const HEIGHT = 610;

/** What each choice of the "Show" menu draws: its answer, the figure of a row, the colours (darker = better). */
const DATASETS = {
  health: {
    route: 'health',
    title: 'Avoided premature deaths per 100,000 households a year',
    value: (row, estimate) =>
      estimate === 'low' ? row.impact_low_per_100k_households : row.impact_per_100k_households,
    colours: d3.schemeGreens[BINS],
  },
  bill: {
    route: 'savings',
    title: 'Median annual bill change per home, $/year (negative = savings)',
    value: (row) => row.median_bill_change,
    colours: [...d3.schemePurples[BINS]].reverse(),
  },
  emissions: {
    route: 'savings',
    title: 'Median annual emissions change per home, kgCO2e/year (negative = avoided)',
    value: (row) => row.median_emissions_change,
    colours: [...d3.schemeBlues[BINS]].reverse(),
  },
};

/** The figures a county's panel lists, per route: the row's field, what it is, and its unit. */
const FIELDS = {
  health: (units) => [
    [
      'impact_per_100k_households',
      'Avoided deaths per 100,000 households, central',
      units.impact_per_100k_households,
    ],
    [
      'impact_low_per_100k_households',
      'Avoided deaths per 100,000 households, low',
      units.impact_per_100k_households,
    ],
    ['impact', 'Avoided deaths, central (Pope et al. 2019)', units.impact],
    ['impact_low', 'Avoided deaths, low (Wu et al. 2020)', units.impact],
    ['number_of_households', 'Households (health rollup)', 'households'],
  ],
  savings: (units) => [
    ['median_bill_change', 'Median bill change per home', units.median_bill_change],
    ['median_emissions_change', 'Median emissions change per home', units.median_emissions_change],
    ['num_samples', 'Sample homes', 'homes'],
    ['num_excluded_samples', 'Sample homes the upgrade does not apply to', 'homes'],
    ['supported', 'Fuels common enough to estimate', ''],
  ],
};

/** "1 county", "3 counties". */
const countyCount = (count) => `${count} ${count === 1 ? 'county' : 'counties'}`;
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
  /** Counts requests, so that an answer arriving after a newer request is dropped. */
  sequence: 0,
};

function setStatus(text, isError = false) {
  const status = element('status');
  status.textContent = text;
  status.className = isError ? 'error' : '';
}

const apiKey = () => sessionStorage.getItem(KEY_STORAGE);

function fillSelect(id, values) {
  const select = element(id);
  for (const value of values) select.append(make('option', value, { value }));
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

/** The request for the chosen dataset, as a URL of this server. */
function requestUrl() {
  const dataset = DATASETS[element('dataset').value];
  const query = new URLSearchParams({ upgrade: element('upgrade').value });
  if (dataset.route === 'savings') {
    query.set('heating_fuel', element('heating-fuel').value);
    const waterHeater = element('water-heater-fuel').value;
    if (waterHeater !== '') query.set('water_heater_fuel', waterHeater);
  }
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
    setStatus('Enter your API key to load data.');
    return;
  }
  const sequence = ++view.sequence;
  const url = requestUrl();
  setStatus(`Loading GET ${url} …`);
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = await response.json();
  if (sequence !== view.sequence) return;
  if (!response.ok) {
    if (response.status === 401) sessionStorage.removeItem(KEY_STORAGE);
    view.answer = null;
    view.rows = new Map();
    setStatus(`The API answered ${response.status}: ${body.message}`, true);
  } else {
    view.answer = body;
    view.rows = new Map(body.counties.map((row) => [row.county_fips, row]));
    view.request = url;
    setStatus(`${countyCount(body.counties.length)} with data, from GET ${url}`);
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

/** Colours the counties by equal-width bins over the data's range, and writes the legend. */
function recolour() {
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
  element('legend-title').textContent = dataset.title;
  const legend = element('legend');
  legend.replaceChildren();
  const format = d3.format(',.4~f');
  for (const bin of bins) {
    const item = make('li', undefined, {
      class: 'legend-bin',
      'data-min': String(bin.min),
      'data-max': String(bin.max),
      'data-colour': bin.colour,
    });
    item.append(make('span', undefined, { class: 'swatch', style: `background:${bin.colour}` }));
    item.append(`${format(bin.min)} to ${format(bin.max)} (${countyCount(counts.get(bin.colour) ?? 0)})`);
    legend.append(item);
  }
  const noData = make('li', undefined, { class: 'legend-no-data', 'data-colour': NO_DATA_COLOUR });
  noData.append(make('span', undefined, { class: 'swatch', style: `background:${NO_DATA_COLOUR}` }));
  noData.append(`No data (${countyCount(counts.get(NO_DATA_COLOUR) ?? 0)})`);
  legend.append(noData);
  // Tells a reader (and the page's spec) which answer the colours are of.
  element('map').setAttribute('data-request', view.answer === null ? '' : view.request);
}

/** The county's figures, as the API answered them, and the requests that give them. */
function showDetails(county) {
  view.shown = county;
  const details = element('details');
  details.replaceChildren();
  const row = view.rows.get(county.id);
  details.append(
    make(
      'h3',
      `${row?.county_name ?? county.properties.name}, ${row?.state_abbreviation ?? ''} (${county.id})`,
    ),
  );
  if (view.answer === null) {
    details.append(make('p', 'No data loaded.'));
    return;
  }
  const route = DATASETS[element('dataset').value].route;
  if (row === undefined) {
    details.append(
      make(
        'p',
        route === 'health'
          ? 'No data: the health rollup has no households of this county.'
          : 'No data: this county’s cluster for these fuels is not precomputed (GET /api/v1/rem/address computes it for an address there).',
        { class: 'no-data' },
      ),
    );
    return;
  }
  const list = make('dl');
  for (const [field, label, unit] of FIELDS[route](view.answer.units)) {
    list.append(make('dt', label));
    const value = make('dd');
    value.append(make('span', String(row[field]), { 'data-field': field }), ` ${unit}`);
    list.append(value);
  }
  details.append(list);
  details.append(make('p', 'From the row with this county_fips in the answer to:'));
  details.append(make('code', `GET ${view.request}`, { class: 'request' }));
  if (route === 'health') {
    const body = {
      metrics: [view.answer.metric],
      upgrade: [view.answer.upgrade],
      state_fips: [county.id.slice(0, 2)],
      county_fips: [county.id.slice(2)],
    };
    details.append(make('p', 'The same impact and impact_low, with the model label, from:'));
    details.append(make('code', `POST /api/v2/etools/health-impacts ${JSON.stringify(body)}`));
  } else {
    details.append(
      make(
        'p',
        'The full statistics: GET /api/v1/rem/address with an address in this county and the same fuels.',
      ),
    );
  }
}

async function main() {
  const [options, us] = await Promise.all(
    ['/explore/options.json', '/explore/assets/counties-10m.json'].map(async (url) =>
      (await fetch(url)).json(),
    ),
  );
  view.options = options;
  fillSelect('upgrade', options.upgrades);
  fillSelect('heating-fuel', options.heating_fuels);
  fillSelect('water-heater-fuel', options.heating_fuels);
  drawCounties(us, new Set(options.contiguous_state_fips));
  element('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY_STORAGE, element('api-key').value.trim());
    element('api-key').value = '';
    load();
  });
  element('forget-key').addEventListener('click', () => {
    sessionStorage.removeItem(KEY_STORAGE);
    view.answer = null;
    view.rows = new Map();
    recolour();
    load();
  });
  element('controls').addEventListener('change', load);
  recolour();
  await load();
}

main().catch((error) => setStatus(`The map could not be drawn: ${error.message}`, true));
