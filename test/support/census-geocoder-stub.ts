import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stub answers one request: a status and JSON body, raw text, or never (to exercise timeouts). */
export type StubAnswer =
  { status: number; json: unknown } | { status: number; text: string; contentType?: string } | 'hang';

export interface CensusGeocoderStub {
  /** Base URL to use as GEOCODER_URL, e.g. http://127.0.0.1:41234/geocoder */
  url: string;
  /** Every request received, as path and query parameters. */
  requests: { path: string; query: URLSearchParams }[];
  close(): Promise<void>;
}

/**
 * A local stand-in for the Census Bureau geocoder on 127.0.0.1: `answer` decides the response to each
 * request. Open connections are destroyed on close, so a hanging answer never keeps a test alive.
 */
export async function startCensusGeocoderStub(
  answer: (query: URLSearchParams, path: string) => StubAnswer,
): Promise<CensusGeocoderStub> {
  const requests: CensusGeocoderStub['requests'] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, query: url.searchParams });
    const reply = answer(url.searchParams, url.pathname);
    if (reply === 'hang') return;
    if ('json' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
    } else {
      res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'text/plain' }).end(reply.text);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/geocoder`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface MatchFields {
  matchedAddress: string;
  lon: number;
  lat: number;
  zip: string;
  state: string;
  stateFips: string;
  countyFips3: string;
  tract: string;
}

/** A one-match answer in the documented `geographies/onelineaddress` JSON shape. */
export function censusMatchAnswer(fields: MatchFields): { status: number; json: unknown } {
  const { stateFips, countyFips3, tract } = fields;
  return {
    status: 200,
    json: {
      result: {
        input: {
          address: { address: fields.matchedAddress },
          benchmark: { id: '4', benchmarkName: 'Public_AR_Current', isDefault: false },
          vintage: { id: '4', vintageName: 'Current_Current', isDefault: false },
        },
        addressMatches: [
          {
            tigerLine: { side: 'L', tigerLineId: '86710123' },
            matchedAddress: fields.matchedAddress,
            coordinates: { x: fields.lon, y: fields.lat },
            addressComponents: {
              zip: fields.zip,
              streetName: 'EXAMPLE',
              preType: '',
              city: 'EXAMPLE',
              state: fields.state,
              suffixType: 'ST',
            },
            geographies: {
              States: [{ GEOID: stateFips, STATE: stateFips, NAME: 'Example', BASENAME: 'Example' }],
              Counties: [
                {
                  GEOID: `${stateFips}${countyFips3}`,
                  STATE: stateFips,
                  COUNTY: countyFips3,
                  NAME: 'Example',
                },
              ],
              'Census Tracts': [
                {
                  GEOID: `${stateFips}${countyFips3}${tract}`,
                  STATE: stateFips,
                  COUNTY: countyFips3,
                  TRACT: tract,
                  NAME: `Census Tract ${Number(tract) / 100}`,
                },
              ],
            },
          },
        ],
      },
    },
  };
}

/** The documented answer when nothing matches: 200 with an empty `addressMatches`. */
export const censusNoMatchAnswer = {
  status: 200,
  json: { result: { input: { address: { address: '' } }, addressMatches: [] } },
};
