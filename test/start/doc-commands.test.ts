import { localLake } from '../../data-lake/lake.ts';
import { execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatTable } from '../../data-lake/cli/format-table.ts';
import { openSqlSession } from '../../data-lake/cli/sql-session.ts';
import { quoteLiteral } from '../../data-lake/sql-quote.ts';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import { servingUrl, startMain } from '../support/start-main-process.ts';

/*
 * The README's and docs' commands, run as a reader would paste them, against `npm start` on the project's
 * sample data: every curl, and the lake-over-HTTP recipes. A command of the docs needs a check here (or a
 * reason it cannot run), so a changed command fails this spec until its answer is checked again.
 */

const KEY = 'doc-commands-key-0123456789abcdef';
/** The server the docs' commands are written for; the spec runs them against its own. */
const DOCS_ORIGIN = 'http://127.0.0.1:3000';
/** The date the docs' answers were taken on (docs/incentives-api.md). */
const AS_OF_DATE = '2026-11-23';
const DOCS = [
  'README.md',
  ...readdirSync(path.join(REPOSITORY_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

interface DocCommand {
  doc: string;
  language: 'sh' | 'js' | 'python';
  text: string;
}

/** The fenced blocks of a markdown text in the languages the docs give commands in. */
function fences(markdown: string): { language: DocCommand['language']; text: string }[] {
  return [...markdown.matchAll(/^```(sh|js|python)\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1] as DocCommand['language'],
    text: match[2]!,
  }));
}

/**
 * The commands of a shell block: a line continued with a backslash joined to the next, comments dropped,
 * a placeholder assignment such as `KEY=…` skipped (the spec sets the key); a block holding a loop is one
 * command, as a reader pastes it whole.
 */
function shellCommands(block: string): string[] {
  const lines = block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((line) => !/^\s*#/.test(line) && line.trim() !== '')
    .map((line) => line.replace(/\s+#\s.*$/, ''))
    .filter((line) => !/^(export )?\w+=…$/.test(line));
  return lines.some((line) => /^\s*(while|for|until|if)\b/.test(line)) ? [lines.join('\n')] : lines;
}

/**
 * What a reader of the docs would run against the server: curl and `duckdb` lines, other commands naming
 * the server (`npm run sql -- --url`), and scripts. (`npm run sql` over the local lake is not of the server.)
 */
function docCommands(): DocCommand[] {
  return DOCS.flatMap((doc) =>
    fences(readFileSync(path.join(REPOSITORY_ROOT, doc), 'utf8')).flatMap(
      ({ language, text }): DocCommand[] =>
        language === 'sh'
          ? shellCommands(text)
              .filter((command) => /\b(curl|duckdb)\b/.test(command) || command.includes(DOCS_ORIGIN))
              .map((command) => ({ doc, language, text: command }))
          : [{ doc, language, text }],
    ),
  );
}

interface Answer {
  stdout: string;
  stderr: string;
  /** The HTTP status of each curl request, in order. */
  statuses: number[];
  exitCode: number;
}

/** Where the commands run: a directory inside the repository, so `npm run` and `node` find the project. */
let workDir: string;
let origin: string;
let lakeDir: string;
let server: ReturnType<typeof startMain> | undefined;

const json = (answer: Answer) => JSON.parse(answer.stdout) as Record<string, unknown>;

interface Incentive {
  id: string;
  state?: string | null;
  items: string[];
  amount: Record<string, unknown>;
  short_description: string;
}
const incentivesOf = (answer: Answer) => (json(answer) as { incentives: Incentive[] }).incentives;

/** The answer lines docs/incentives-api.md shows under a heading line, as jq -c prints them. */
function shownAnswer(heading: string): string[] {
  const lines = readFileSync(path.join(REPOSITORY_ROOT, 'docs/incentives-api.md'), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  expect(start, `docs/incentives-api.md shows "${heading}"`).toBeGreaterThan(-1);
  const shown = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^[{[]/.test(line)) break;
    shown.push(line);
  }
  return shown;
}
const idAndAmount = ({ id, amount }: Incentive) => JSON.stringify({ id, amount });

/** Incentives by state as the lake's own incentives file counts them (federal ones have no state). */
async function lakeIncentivesByState(): Promise<[string, number][]> {
  const session = await openSqlSession(localLake(lakeDir));
  try {
    const [result] = await session.query(
      "SELECT coalesce(state, 'federal') AS state, count(*)::INTEGER FROM incentives GROUP BY 1 ORDER BY 1",
    );
    return result!.rows as [string, number][];
  } finally {
    session.close();
  }
}

const HEAT_PUMPS = ['ducted_heat_pump', 'ductless_heat_pump'];
const PROVIDENCE_ADDRESS =
  'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/rem/address?address=1%20Main%20St%2C%20Providence%2C%20RI%2002903&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas"';
const BOSTON_EVERSOURCE =
  'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/calculator?zip=02116&owner_status=homeowner&household_income=60000&household_size=3&tax_filing=single&utility=ma-eversource"';

/** A heat pump replacing gas heat: the home burns less gas, and the answer says how it was estimated. */
function expectHeatPumpSavesGas(answer: Answer, estimateType: string) {
  expect(answer.statuses).toEqual([200]);
  const body = json(answer) as {
    estimate_type: string;
    fuel_results: { natural_gas: { delta: { energy: { median: { value: number; unit: string } } } } };
    sampling_details: { num_samples: number };
  };
  expect(body.estimate_type).toBe(estimateType);
  expect(body.fuel_results.natural_gas.delta.energy.median.unit).toBe('therm');
  expect(body.fuel_results.natural_gas.delta.energy.median.value).toBeLessThan(-100);
  expect(body.sampling_details.num_samples).toBeGreaterThan(0);
}

/** Each command's check, by its text as the docs write it. */
const CHECKS = new Map<string, (answer: Answer) => void | Promise<void>>([
  [
    'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/utilities?zip=02116"',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      expect(json(answer).utilities).toEqual({ 'ma-eversource': { name: 'Eversource' } });
    },
  ],
  [
    BOSTON_EVERSOURCE,
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      const incentives = incentivesOf(answer);
      // What a newcomer came for: heat-pump rebates, which the README promises for this household.
      expect(
        incentives.filter((i) => i.items.some((item) => HEAT_PUMPS.includes(item))).map((i) => i.id),
      ).toEqual(['MA-MASSSAVE-WHOLE-HOME-ASHP-2026']);
      expect(incentives.map((i) => i.id)).toContain('MA-MASSSAVE-HPWH');
      expect(incentives.map(idAndAmount)).toEqual(shownAnswer('02116 homeowner, Eversource:'));
    },
  ],
  [PROVIDENCE_ADDRESS, (answer) => expectHeatPumpSavesGas(answer, 'county_level')],
  [
    'curl -X POST -H "Authorization: Bearer $KEY" -H \'Content-Type: application/json\' -d \'{"upgrade":"hvac__heat_pump_seer18_hspf10","heating_fuel":"natural_gas","building_profile":{"county":"G4400070","building_features":{"geometry_floor_area":1800}}}\' http://127.0.0.1:3000/api/v1/rem/profile',
    (answer) => expectHeatPumpSavesGas(answer, 'address_level'),
  ],
  [
    'curl -X POST -H "Authorization: Bearer $KEY" -H \'Content-Type: application/json\' -d \'{"upgrade":"hvac__heat_pump_seer18_hspf10","heating_fuel":"natural_gas","building_profile":{"county":"G4400070","building_features":{"geometry_floor_area":1800,"hvac_heating_type":["Ducted Heating"]}}}\' http://127.0.0.1:3000/api/v1/rem/profile',
    (answer) => expectHeatPumpSavesGas(answer, 'address_level'),
  ],
  [
    'curl -X POST -H "Authorization: Bearer $KEY" -H \'Content-Type: application/json\' -d \'{"metrics":["avoided_premature_mortality_incidence"],"upgrade":["combination__all_electric__hvac_seer24_hspf13__weatherization"],"state_fips":["44"]}\' http://127.0.0.1:3000/api/v2/etools/health-impacts',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      const [rhodeIsland, ...others] = json(answer).data as Record<string, unknown>[];
      expect(others).toEqual([]);
      expect(rhodeIsland).toMatchObject({
        state_abbreviation: 'RI',
        metric: 'avoided_premature_mortality_incidence',
        units: 'deaths_per_year',
      });
      expect(rhodeIsland!.impact).toBeGreaterThan(rhodeIsland!.impact_low as number);
      expect(rhodeIsland!.impact_low).toBeGreaterThan(0);
    },
  ],
  [
    'curl -X POST -H "Authorization: Bearer $KEY" -H \'Content-Type: application/json\' -d \'{"metrics":["avoided_premature_mortality_incidence"],"upgrade":["hvac__heat_pump_seer18_hspf10"],"state_fips":["55"],"county_fips":["*"],"group_by":["house_size_square_feet_binned"]}\' http://127.0.0.1:3000/api/v2/etools/health-impacts',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      const rows = json(answer).data as {
        state_abbreviation: string;
        county_name: string;
        in_sqft_bin: string;
      }[];
      expect(new Set(rows.map((row) => row.state_abbreviation))).toEqual(new Set(['WI']));
      // Wisconsin's 72 counties, each by floor-area bin: Dane County among them, as the doc's example shows.
      expect(new Set(rows.map((row) => row.county_name)).size).toBe(72);
      expect(rows.filter((row) => row.county_name === 'Dane County').map((row) => row.in_sqft_bin)).toContain(
        '0-1499',
      );
    },
  ],
  [
    'curl -X POST -H "Authorization: Bearer $KEY" -H \'Content-Type: application/json\' -d \'{"metrics":["avoided_premature_mortality_incidence","avoided_premature_mortality_value"],"upgrade":["combination__all_electric__hvac_seer24_hspf13__weatherization"],"group_by":["housing_type"]}\' http://127.0.0.1:3000/api/v2/etools/health-impacts',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      const rows = json(answer).data as {
        state_abbreviation: string;
        in_housing_type: string;
        metric: string;
      }[];
      // Every state the sample lake's health rollup holds (HEALTH_STATES=RI,WI here), both housing types, both metrics.
      expect(rows.map((row) => [row.state_abbreviation, row.in_housing_type, row.metric]).sort()).toEqual(
        ['RI', 'WI']
          .flatMap((state) => ['multi_family', 'single_family'].map((type) => [state, type]))
          .flatMap(([state, type]) =>
            ['avoided_premature_mortality_incidence', 'avoided_premature_mortality_value'].map((metric) => [
              state,
              type,
              metric,
            ]),
          ),
      );
    },
  ],
  [
    'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/calculator?zip=02903&owner_status=renter&household_income=45000&household_size=2&language=es"',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      const incentives = incentivesOf(answer);
      expect(incentives.map((i) => i.id)).toEqual([
        'RI-HEAR-PANEL',
        'RI-HEAR-WIRING',
        'RI-HEAR-STOVE',
        'RI-HEAR-DRYER',
      ]);
      const [panel] = incentives;
      expect(
        shownAnswer(
          "02903 renter, in Spanish (| jq -c '.incentives[] | {id, short_description}'), first of four:",
        ),
      ).toEqual([JSON.stringify({ id: panel!.id, short_description: panel!.short_description })]);
    },
  ],
  [
    'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/calculator?zip=80301&owner_status=homeowner&household_income=90000&household_size=4&utility=co-xcel-energy"',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      expect(incentivesOf(answer).map(idAndAmount)).toEqual(shownAnswer('80301 homeowner, Xcel Energy:'));
    },
  ],
  [
    'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/utilities?zip=80301"',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      expect([JSON.stringify(json(answer))]).toEqual(shownAnswer('utilities?zip=80301:'));
    },
  ],
  [
    'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/incentives/programs?zip=80301&utility=co-xcel-energy"',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      expect([JSON.stringify(Object.keys(json(answer).programs as object).sort())]).toEqual(
        shownAnswer("incentives/programs (| jq -c '.programs | keys'):"),
      );
    },
  ],
  [
    'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/finance/loan-programs?zip=02116"',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      const loans = JSON.parse(answer.stdout) as {
        name: string;
        loan_program_terms: { max_loan_amount: number };
      }[];
      expect(
        loans.map((loan) =>
          JSON.stringify({ name: loan.name, max_loan_amount: loan.loan_program_terms.max_loan_amount }),
        ),
      ).toEqual(
        shownAnswer(
          "finance/loan-programs (| jq -c '.[] | {name, max_loan_amount: .loan_program_terms.max_loan_amount}'):",
        ),
      );
    },
  ],
  [
    'curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:3000/api/v1/incentives?state=MA&items=ducted_heat_pump,ductless_heat_pump&language=es"',
    (answer) => {
      expect(answer.statuses).toEqual([200]);
      const body = json(answer) as { total: number; incentives: Incentive[] };
      // Massachusetts' and the federal heat-pump incentives, ended ones included (each has its end_date).
      expect(body.incentives.map((i) => [i.id, i.state])).toEqual([
        ['IRA-25C-HEAT-PUMPS', null],
        ['MA-MASSSAVE-PARTIAL-HOME-ASHP', 'MA'],
        ['MA-MASSSAVE-PARTIAL-HOME-ASHP-2026', 'MA'],
        ['MA-MASSSAVE-WHOLE-HOME-ASHP', 'MA'],
        ['MA-MASSSAVE-WHOLE-HOME-ASHP-2026', 'MA'],
      ]);
      for (const incentive of body.incentives)
        expect(incentive.items.filter((item) => HEAT_PUMPS.includes(item))).not.toEqual([]);
      expect(body.total).toBe(body.incentives.length);
    },
  ],
  [
    [
      'url="http://127.0.0.1:3000/api/v1/incentives?page_size=500"; next=""',
      'while :; do',
      '  page=$(curl -s -H "Authorization: Bearer $KEY" "$url${next:+&page_token=$next}")',
      '  echo "$page" | jq -c \'.incentives[] | {id, state, program: .program.name, end_date}\'',
      '  next=$(echo "$page" | jq -r \'.next_page_token // empty\'); [ -z "$next" ] && break',
      'done',
    ].join('\n'),
    async (answer) => {
      expect(answer.statuses).toEqual([200]);
      const listed = answer.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string });
      // Every incentive of the snapshot, once.
      const byState = await lakeIncentivesByState();
      expect(listed).toHaveLength(byState.reduce((sum, [, count]) => sum + count, 0));
      expect(new Set(listed.map((i) => i.id)).size).toBe(listed.length);
    },
  ],
  [
    'curl -H "Authorization: Bearer $LAKE_API_KEY" http://127.0.0.1:3000/api/v1/lake',
    async (answer) => {
      expect(answer.statuses).toEqual([200]);
      const listing = json(answer) as { snapshot: { id: string }; tables: { name: string }[] };
      const session = await openSqlSession(localLake(lakeDir));
      session.close();
      expect(listing.snapshot.id).toBe(session.snapshotId);
      expect(listing.tables.map((table) => table.name)).toEqual(
        session.tables.map((table) => table.name).sort(),
      );
    },
  ],
  [
    'curl -H "Authorization: Bearer $LAKE_API_KEY" -o incentives.parquet http://127.0.0.1:3000/api/v1/lake/incentives.parquet',
    async (answer) => {
      expect(answer.statuses).toEqual([200]);
      const session = await openSqlSession(localLake(lakeDir));
      session.close();
      const lakeFile = session.tables.find((table) => table.name === 'incentives')!.file;
      const sha256 = async (file: string) =>
        createHash('sha256')
          .update(await readFile(file))
          .digest('hex');
      expect(await sha256(path.join(workDir, 'incentives.parquet'))).toBe(await sha256(lakeFile));
    },
  ],
  [
    'npm run sql -- --url http://127.0.0.1:3000/api/v1/lake --tables incentives -c "SELECT coalesce(state, \'federal\') AS state, count(*) AS incentives FROM incentives GROUP BY 1 ORDER BY 1"',
    async (answer) => {
      expect(answer.exitCode).toBe(0);
      expect(answer.stdout).toContain(formatTable(['state', 'incentives'], await lakeIncentivesByState()));
      // The point of LAKE_API_KEY: npm prints the command line, which holds no key.
      expect(answer.stdout + answer.stderr).not.toContain(KEY);
    },
  ],
  [
    "duckdb -c \"SELECT coalesce(state, 'federal') AS state, count(*) AS incentives FROM read_parquet('incentives.parquet') GROUP BY 1 ORDER BY 1\"",
    async (answer) => expect(JSON.parse(answer.stdout)).toEqual(await lakeIncentivesByState()),
  ],
]);

/** Commands the spec cannot run, and why. */
const NOT_RUN = new Map<string, string>([
  [
    'printf "CREATE PERSISTENT SECRET electrify (TYPE http, BEARER_TOKEN \'%s\', SCOPE \'http://127.0.0.1:3000/api/v1/lake/\');\\n" "$LAKE_API_KEY" | duckdb',
    'needs the duckdb CLI and its httpfs extension, which DuckDB downloads from the internet (not possible here)',
  ],
  [
    "duckdb -c \"SELECT coalesce(state, 'federal') AS state, count(*) AS incentives FROM read_parquet('http://127.0.0.1:3000/api/v1/lake/snapshots/20261127T171845641Z-61aa07ed/incentives.parquet') GROUP BY 1 ORDER BY 1\"",
    'reads over HTTP through the httpfs extension, which DuckDB downloads from the internet (not possible here)',
  ],
]);

/** The key of a script block (js, python): the doc has one of each language, checked as a whole. */
const scriptKey = (doc: string, language: DocCommand['language']) => `${doc}: the ${language} block`;

const SCRIPT_CHECKS = new Map<string, (answer: Answer) => void | Promise<void>>([
  [
    scriptKey('docs/lake-over-http.md', 'js'),
    async (answer) => {
      expect(answer.exitCode).toBe(0);
      // hyparquet's counts over HTTP range requests are DuckDB's of the lake's own file.
      expect(Object.entries(JSON.parse(answer.stdout) as Record<string, number>).sort()).toEqual(
        await lakeIncentivesByState(),
      );
    },
  ],
]);
const SCRIPTS_NOT_RUN = new Map<string, string>([
  [
    scriptKey('docs/lake-over-http.md', 'python'),
    'pandas, pyarrow and fsspec are not part of the project (no Python packages are installed for it)',
  ],
]);

const keyOf = (command: DocCommand) =>
  command.language === 'sh' ? command.text : scriptKey(command.doc, command.language);

/** Runs a command of the docs in the work directory with the key in KEY and LAKE_API_KEY, against the spec's server. */
async function run(command: DocCommand): Promise<Answer> {
  const text = command.text.replaceAll(DOCS_ORIGIN, origin);
  const env = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? workDir,
    CURL_HOME: workDir,
    KEY,
    LAKE_API_KEY: KEY,
  };
  if (command.language === 'js') {
    const script = path.join(workDir, 'recipe.mjs');
    await writeFile(script, text);
    return execute(process.execPath, [script], env);
  }
  const duckdb = /^duckdb -c "(.*)"$/.exec(text);
  if (duckdb) return runDuckDb(duckdb[1]!);
  return execute('bash', ['-o', 'pipefail', '-c', text], env);
}

/**
 * The `duckdb` CLI is not installed where the spec runs: its statement runs in the project's DuckDB (the
 * same engine), reading relative paths from the work directory as the CLI would from its own.
 */
async function runDuckDb(sql: string): Promise<Answer> {
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const db = await instance.connect();
    await db.run(`SET file_search_path = ${quoteLiteral(workDir)}`);
    const rows = (await db.runAndReadAll(sql)).getRowsJS();
    db.closeSync();
    // count(*) is a BIGINT: as a number, to compare with the lake's own count.
    return {
      stdout: JSON.stringify(
        rows.map((row) => row.map((value) => (typeof value === 'bigint' ? Number(value) : value))),
      ),
      stderr: '',
      statuses: [],
      exitCode: 0,
    };
  } finally {
    instance.closeSync();
  }
}

/** Runs a program, collecting its output; curl's .curlrc in the work directory writes each status on stderr. */
function execute(file: string, args: string[], env: Record<string, string>): Promise<Answer> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: workDir, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const statuses = stderr
        .split('\n')
        .filter((line) => /^\d{3}$/.test(line))
        .map(Number);
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ stdout, stderr, statuses, exitCode });
    });
  });
}

const COMMANDS = docCommands();

let lakeParent: string;
beforeAll(async () => {
  await mkdir(path.join(REPOSITORY_ROOT, '.tmp'), { recursive: true });
  workDir = await mkdtemp(path.join(REPOSITORY_ROOT, '.tmp', 'doc-commands-'));
  // curl as the reader runs it, with the status of each request written on stderr for the checks.
  await writeFile(
    path.join(workDir, '.curlrc'),
    'silent\nshow-error\nwrite-out = "%{stderr}%{http_code}\\n"\n',
  );
  lakeParent = await mkdtemp(path.join(tmpdir(), 'doc-commands-lake-'));
  lakeDir = path.join(lakeParent, 'lake');
  server = startMain({
    LAKE_DIR: lakeDir,
    PORT: '0',
    HOST: '127.0.0.1',
    API_KEYS: KEY,
    AS_OF_DATE,
    // REM precomputed for Rhode Island (other counties on request), health for the states the docs ask.
    REM_STATES: 'RI',
    HEALTH_STATES: 'RI,WI',
  });
  const started = server;
  origin = await vi.waitFor(
    () => {
      const url = servingUrl(started.output.stdout);
      if (url === undefined)
        throw new Error(`npm start is not serving yet; its stderr:\n${started.output.stderr}`);
      return url;
    },
    { timeout: 120_000, interval: 250 },
  );
  // Every state the docs ask for answers once the whole precompute is published (the first answers have some).
  await vi.waitFor(
    async () => {
      const health = (await (await fetch(`${origin}/healthz`)).json()) as {
        families: Record<string, boolean>;
        precompute: unknown;
      };
      expect(health).toMatchObject({
        families: { incentives: true, rem: true, 'health-impacts': true, lake: true },
        precompute: null,
      });
    },
    { timeout: 180_000, interval: 1000 },
  );
}, 320_000);

afterAll(async () => {
  const child: ChildProcess | undefined = server?.child;
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await server!.exited;
  }
  await rm(workDir, { recursive: true, force: true });
  await rm(lakeParent, { recursive: true, force: true });
});

describe('the commands of the README and docs, against npm start on the sample data', () => {
  it('has a check, or a reason it cannot run, for each command, and none for a command the docs no longer hold', () => {
    const keys = COMMANDS.map(keyOf);
    const known = [...CHECKS.keys(), ...NOT_RUN.keys(), ...SCRIPT_CHECKS.keys(), ...SCRIPTS_NOT_RUN.keys()];
    expect(keys.filter((key) => !known.includes(key))).toEqual([]);
    expect(known.filter((key) => !keys.includes(key))).toEqual([]);
    // A script block is known by its doc and language: one of each per doc.
    const scripts = keys.filter((key) => !COMMANDS.some((command) => command.text === key));
    expect(new Set(scripts).size).toBe(scripts.length);
    // Every command is written for the server npm start serves, which the spec replaces with its own.
    for (const command of COMMANDS.filter((c) => !NOT_RUN.has(keyOf(c))))
      for (const url of command.text.match(/https?:\/\/[^/\s"']+/g) ?? [])
        expect(url, command.text).toBe(DOCS_ORIGIN);
  });

  for (const command of COMMANDS) {
    const key = keyOf(command);
    const check = CHECKS.get(key) ?? SCRIPT_CHECKS.get(key);
    if (check === undefined) continue;
    it(`${command.doc}: ${command.text.split('\n')[0]!.slice(0, 110)}`, async () => {
      const answer = await run(command);
      await check(answer);
    }, 60_000);
  }
});
