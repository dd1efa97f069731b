import { describe, expect, it } from 'vitest';
import { lowestSupported, unsupportedNodeMessage } from '../../start/check-node.mjs';

describe('the Node version check before npm start and npm test', () => {
  const lowest = lowestSupported('>=22.19');

  it('reads the lowest supported Node from package.json engines', () => {
    expect(lowest).toEqual({ major: 22, minor: 19 });
    expect(() => lowestSupported('^22')).toThrow('package.json engines.node is not of the form');
  });

  it('lets 22.19 and later through, and 24', () => {
    for (const version of ['22.19.0', '22.23.3', '23.0.0', '24.11.1'])
      expect(unsupportedNodeMessage(version, lowest, 'npm start')).toBeNull();
  });

  it('stops Node 20 and an early 22 with the one command that runs on npm’s node package', () => {
    expect(unsupportedNodeMessage('20.20.2', lowest, 'npm start')).toBe(
      [
        'This project needs Node 22.19 or later (22 or 24, the maintained LTS lines); this is Node 20.20.2.',
        "Run it on npm's node package, without changing the machine's Node:",
        '  npx -y -p node@22 -- npm start',
        'or install Node 22 from https://nodejs.org/en/download or your package manager.',
        'Nothing is promised on older Node: on 20, installing works but starting fails inside a dependency.',
      ].join('\n'),
    );
    expect(unsupportedNodeMessage('22.18.0', lowest, 'npm test')).toContain('npx -y -p node@22 -- npm test');
  });
});
