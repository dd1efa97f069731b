import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.ts';

describe('CORS_ORIGINS', () => {
  it('allows no origin by default', () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '' }).CORS_ORIGINS).toEqual([]);
  });

  it('reads a comma-separated list of origins as browsers send them, or *', () => {
    expect(
      loadConfig({ CORS_ORIGINS: 'https://calculator.example.org, http://127.0.0.1:8080,' }).CORS_ORIGINS,
    ).toEqual(['https://calculator.example.org', 'http://127.0.0.1:8080']);
    expect(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
  });

  it.each([
    'https://calculator.example.org/',
    'https://example.org/embed',
    'calculator.example.org',
    'https://Example.org',
  ])('refuses %s, naming the variable', (origin) => {
    expect(() => loadConfig({ CORS_ORIGINS: origin })).toThrow(
      new ConfigError(
        'CORS_ORIGINS',
        'each origin is written as a browser sends it, scheme://host[:port] with no path or trailing slash, or *',
      ),
    );
  });
});

describe('API_KEYS', () => {
  it('reads a comma-separated list of keys and refuses a short one', () => {
    expect(loadConfig({ API_KEYS: ' key-of-partner-a-0001 ,key-of-partner-b-0002' }).API_KEYS).toEqual([
      'key-of-partner-a-0001',
      'key-of-partner-b-0002',
    ]);
    expect(() => loadConfig({ API_KEYS: 'short' })).toThrow(
      'Invalid environment variable API_KEYS: each API key must be at least 16 characters',
    );
  });
});
