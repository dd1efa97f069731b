/** One entry of the sources config file (ingest/sources.json), after environment overrides. */
export interface SourceDeclaration {
  /** Stable name, e.g. "incentives". Records and versions are tracked per source name. */
  name: string;
  /** The parser that understands the source's layout, e.g. "rewiring-america-open-data". */
  kind: string;
  /** A local file or directory path, or an http(s) URL (a file, or a base URL of a directory). */
  location: string;
  /** Optional expected SHA-256 (hex) of a single-file source. */
  sha256?: string;
  /**
   * Days without a change after which the source is reported stale (a feed that has not moved in months is
   * often broken); absent: SOURCE_STALE_AFTER_DAYS; null: never, for a file shipped with the project (it
   * changes with the code). An environment override of the location drops it, with the declared SHA-256.
   */
  staleAfterDays?: number | null;
}

/**
 * Reads files of one source. Connectors (local file or directory, HTTP(S)) implement it, so parsers do not
 * care where a source lives. Paths are relative to the source location, with "/" separators.
 */
export interface SourceReader {
  readonly location: string;
  /** The file's bytes, or null when the source has no such file (404 / ENOENT). Other failures throw. */
  read(path: string): Promise<Buffer | null>;
  /** Every file the reader has returned so far, with its size and SHA-256: the source's content version. */
  filesRead(): { path: string; bytes: number; sha256: string }[];
}

/** A record ready for the event log: its record schema, natural key and payload. */
export interface SourceRecord {
  schema: string;
  key: string;
  payload: unknown;
  /** The file it was read from, relative to the source's location, for messages; absent for a single file. */
  file?: string;
}

/**
 * Turns a source's files into records. A parser must read everything and throw on a malformed source
 * *before* anything is published; per-record validation happens later, in transform (quarantine).
 */
export interface SourceParser {
  kind: string;
  /** Record schemas this parser emits, so consumers know which topics to read. */
  recordSchemas: string[];
  parse(reader: SourceReader): Promise<SourceRecord[]>;
}
