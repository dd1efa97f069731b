import { existsSync } from 'node:fs';

/**
 * Why the specs that need a Debian package's binary cannot run here, or undefined when they can. .ci/run
 * installs the package and sets `requiredVariable`, so in CI a missing binary fails those specs instead.
 */
export function debianBinaryUnavailable(
  binary: string,
  debianPackage: string,
  requiredVariable: string,
  specs: string,
): string | undefined {
  if (existsSync(binary)) return undefined;
  const reason = `${binary} is missing (apt-get install ${debianPackage})`;
  if (process.env[requiredVariable]) throw new Error(`${requiredVariable} is set, but ${reason}`);
  console.log(`${specs} not run: ${reason}`);
  return reason;
}
