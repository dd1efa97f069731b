// Plain JavaScript on purpose: it runs before anything else (npm's prestart and pretest), on whatever Node the
// machine has, and Node before 22.18 cannot run TypeScript. Without it, Node 20 fails deep inside a dependency
// (undici: "Cannot read properties of undefined (reading 'bind')"), which says nothing of the cause.
import console from 'node:console';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

/** The lowest Node the project supports, from package.json's engines (">=22.19"). */
export function lowestSupported(engines) {
  const match = /^>=\s*(\d+)\.(\d+)/.exec(engines ?? '');
  if (!match) throw new Error(`package.json engines.node is not of the form ">=major.minor": ${engines}`);
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/** What to tell a user on Node `version` (e.g. "20.20.2"), or null when it is supported. */
export function unsupportedNodeMessage(version, lowest, command) {
  const [major, minor] = version.split('.').map(Number);
  if (major > lowest.major || (major === lowest.major && minor >= lowest.minor)) return null;
  return [
    `This project needs Node ${lowest.major}.${lowest.minor} or later (22 or 24, the maintained LTS lines); ` +
      `this is Node ${version}.`,
    `Run it on npm's node package, without changing the machine's Node:`,
    `  npx -y -p node@${lowest.major} -- ${command}`,
    `or install Node ${lowest.major} from https://nodejs.org/en/download or your package manager.`,
    `Nothing is promised on older Node: on 20, installing works but starting fails inside a dependency.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  // Run as prestart or pretest: the command to give again is npm start or npm test.
  const command = `npm ${(process.env.npm_lifecycle_event ?? 'prestart').replace(/^pre/, '')}`;
  const message = unsupportedNodeMessage(process.versions.node, lowestSupported(engines.node), command);
  if (message !== null) {
    console.error(message);
    process.exit(1);
  }
}
