/** One sample of a scrape: its metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a Prometheus text exposition (comments skipped; label values unescaped). */
export function parseSamples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = SAMPLE_LINE.exec(line);
    if (match === null) return [];
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(LABEL)].map(([, name, value]) => [
        name!,
        value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c)),
      ]),
    );
    return [{ name: match[1]!, labels, value: Number(match[3]) }];
  });
}

/** The values of `name`'s samples whose labels include `labels`, each with its full labels. */
export function samplesOf(text: string, name: string, labels: Record<string, string> = {}): Sample[] {
  return parseSamples(text).filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The value of the one sample of `name` with exactly these labels; throws if there is none. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.keys(labels).length;
  const found = samplesOf(text, name, labels).filter((s) => Object.keys(s.labels).length === wanted);
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}
