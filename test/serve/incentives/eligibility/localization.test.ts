import { describe, expect, it } from 'vitest';
import { tr } from '../../../../serve/incentives/eligibility/localization.ts';

describe('tr', () => {
  it('picks the requested language and falls back to English', () => {
    const text = { en: 'Heat pump rebate', es: 'Reembolso por bomba de calor' };
    expect(tr(text, 'es')).toBe('Reembolso por bomba de calor');
    expect(tr(text, 'en')).toBe('Heat pump rebate');
    expect(tr({ en: 'Only English' }, 'es')).toBe('Only English');
  });
});
