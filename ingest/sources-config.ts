import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { REPOSITORY_ROOT } from '../lib/repository-root.ts';
import { isHttpLocation } from './connectors/open-reader.ts';
import type { SourceDeclaration } from './source.ts';

const location = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine((value) => !isHttpLocation(value) || URL.canParse(value), 'is not a valid http(s) URL');

const sourceDeclarationSchema = z.strictObject({
  name: z
    .string()
    .regex(
      /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/,
      'must be lower-case letters and digits, words joined by "-" or "_", starting with a letter',
    ),
  kind: z.string().trim().min(1, 'must not be empty'),
  location,
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal digits')
    .transform((hex) => hex.toLowerCase())
    .optional(),
  staleAfterDays: z.number().int().positive().nullable().optional(),
});

/** The sources file: `{ "sources": [ { name, kind, location, sha256?, staleAfterDays? }, ... ] }`. */
export const sourcesFileSchema = z
  .strictObject({ sources: z.array(sourceDeclarationSchema).min(1, 'must declare at least one source') })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    for (const [i, source] of file.sources.entries()) {
      const variable = sourceEnvVariable(source.name);
      if (seen.has(variable)) {
        ctx.addIssue({
          code: 'custom',
          path: ['sources', i, 'name'],
          message: `is declared twice (or clashes as ${variable})`,
        });
      }
      seen.add(variable);
    }
  });

export class SourcesConfigError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SourcesConfigError';
  }
}

/** The environment variable that replaces a source's location: "utility-rates" → UTILITY_RATES_SOURCE. */
export function sourceEnvVariable(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_SOURCE`;
}

/** SOURCES_FILE as an absolute path; a relative one is taken from the repository root. */
export function resolveSourcesFile(configured: string): string {
  return path.resolve(REPOSITORY_ROOT, configured);
}

/**
 * Reads and validates the sources file, then applies `<NAME>_SOURCE` overrides from the environment. An
 * override replaces the location and drops the declared SHA-256 (it belonged to the declared file). Relative
 * locations resolve against the repository the file belongs to: the parent of the file's folder.
 */
export async function loadSources(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SourceDeclaration[]> {
  const sourcesFile = path.resolve(file);
  let text: string;
  try {
    text = await readFile(sourcesFile, 'utf8');
  } catch (error) {
    throw new SourcesConfigError(`Cannot read sources file ${sourcesFile}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SourcesConfigError(
      `Sources file ${sourcesFile} is not valid JSON: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const parsed = sourcesFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new SourcesConfigError(
      `Sources file ${sourcesFile}: ${describeIssue(json, parsed.error.issues[0]!)}`,
    );
  }
  const root = path.dirname(path.dirname(sourcesFile));
  return parsed.data.sources.map((declared) => {
    const variable = sourceEnvVariable(declared.name);
    const override = env[variable];
    if (override === undefined || override === '') {
      return { ...declared, location: resolveLocation(root, declared.location) };
    }
    const checked = location.safeParse(override);
    if (!checked.success) {
      throw new SourcesConfigError(
        `Environment variable ${variable} (location of source "${declared.name}"): ${checked.error.issues[0]!.message}`,
      );
    }
    return { name: declared.name, kind: declared.kind, location: resolveLocation(root, checked.data) };
  });
}

function resolveLocation(root: string, value: string): string {
  return isHttpLocation(value) ? value : path.resolve(root, value);
}

/** Names the source (by its name when it has one, else its position) and the field at fault. */
function describeIssue(json: unknown, issue: z.core.$ZodIssue): string {
  const [top, index, ...field] = issue.path;
  if (top !== 'sources' || typeof index !== 'number') {
    return issue.path.length > 0 ? `field "${issue.path.join('.')}": ${issue.message}` : issue.message;
  }
  const entry = (json as { sources: unknown[] }).sources[index];
  const name = (entry as { name?: unknown } | null)?.name;
  const source = typeof name === 'string' && name !== '' ? `source "${name}"` : `sources[${index}]`;
  return field.length > 0
    ? `${source}, field "${field.join('.')}": ${issue.message}`
    : `${source}: ${issue.message}`;
}
