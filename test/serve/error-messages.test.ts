import { describe, expect, it } from 'vitest';
import { jsonReasonInSpanish } from '../../serve/error-messages.ts';
import { jsonSyntaxProblem } from '../../serve/http/json-body-parser.ts';

describe('jsonReasonInSpanish', () => {
  it('says in Spanish every reason JSON.parse gives for these broken bodies, each in its own words', () => {
    const broken = [
      '{"upgrade": ',
      '{',
      '{"metrics": ["ammonia"],}',
      '{"metrics" ["ammonia"]}',
      '{"metrics": [] "upgrade": []}',
      '{"state_fips": ["44" "55"]}',
      '{"language": "es',
      '{"language": "e\u0001s"}',
      '{"language": "\\q"}',
      '{"language": "\\uZZZZ"}',
      '{"household_income": 5e}',
      '{"household_income": -}',
      '{"household_income": 52000.}',
      '{"metrics": []} x',
    ];
    const reasons = broken.map((text) => jsonSyntaxProblem(text)!.reason);
    const spanish = reasons.map(jsonReasonInSpanish);
    // Run on each Node the project supports: a V8 that words a reason anew shows up here, untranslated.
    spanish.forEach((said, i) => expect(said, reasons[i]).not.toBe(reasons[i]));
    expect(new Set(spanish).size).toBe(broken.length);
  });

  it('names the unexpected token, and keeps a reason it does not know as V8 wrote it', () => {
    expect(jsonReasonInSpanish("Unexpected token 'T'")).toBe("símbolo inesperado 'T'");
    expect(jsonReasonInSpanish('Unexpected end of JSON input')).toBe(
      'el texto termina antes de que acabe el JSON',
    );
    expect(jsonReasonInSpanish('Some reason a later V8 gives')).toBe('Some reason a later V8 gives');
  });
});
