import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem } from '../../../serve/http/json-body-parser.ts';

describe('jsonSyntaxProblem', () => {
  it('is null for a text that parses, whatever its value', () => {
    for (const text of ['{"metrics":["ammonia"]}', '[44]', '"44"', ' 7 ', 'null']) {
      expect(jsonSyntaxProblem(text)).toBeNull();
    }
  });

  it("gives JSON.parse's reason and the line and column of its position, 1-based", () => {
    expect(jsonSyntaxProblem('{"state_fips": ["44" "55"]}')).toEqual({
      reason: "Expected ',' or ']' after array element",
      at: { line: 1, column: 22 },
    });
    const pasted = '{\n  "metrics": ["ammonia"],\n  "upgrade": ["hvac__heat_pump_seer18_hspf10"],\n}';
    expect(jsonSyntaxProblem(pasted)).toEqual({
      reason: 'Expected double-quoted property name',
      at: { line: 4, column: 1 },
    });
    expect(jsonSyntaxProblem('{"metrics": []} x')).toEqual({
      reason: 'Unexpected non-whitespace character after JSON',
      at: { line: 1, column: 17 },
    });
  });

  it('places a text that stops early at its end', () => {
    expect(jsonSyntaxProblem('{"metrics": ["ammonia"')).toEqual({
      reason: "Expected ',' or ']' after array element",
      at: { line: 1, column: 23 },
    });
    expect(jsonSyntaxProblem('{\n  "upgrade": ')).toEqual({
      reason: 'Unexpected end of JSON input',
      at: { line: 2, column: 14 },
    });
  });

  it('keeps only the token of an unexpected-token report, which names no position', () => {
    expect(jsonSyntaxProblem('{"state_fips": [44, TX]}')).toEqual({ reason: "Unexpected token 'T'" });
  });
});
