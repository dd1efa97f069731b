/**
 * Comparison as the upstream tests do it: drop from the actual body every property the reference
 * response schema does not define (so extra fields such as an incentive `id` are allowed), then compare
 * deeply, ignoring object key order but keeping array order.
 */

/** What the reference schema allows: `true` = any value, an object = these keys, `{ '*': … }` = a map. */
type Shape = true | { [key: string]: Shape };

const named: Shape = { '*': { name: true, logo: { src: true, width: true, height: true } } };
const incentive: Shape = {
  payment_methods: true,
  authority_type: true,
  authority: true,
  program: true,
  program_url: true,
  more_info_url: true,
  paused: true,
  items: true,
  amount: { type: true, number: true, maximum: true, representative: true, unit: true },
  owner_status: true,
  start_date: true,
  end_date: true,
  short_description: true,
};

export const REFERENCE_SHAPES = {
  calculator: {
    is_under_80_ami: true,
    is_under_150_ami: true,
    is_over_150_ami: true,
    authorities: named,
    coverage: { state: true, utility: true },
    // Upstream defines city and county_fips but never fills them: compare the state only.
    location: { state: true },
    data_partners: named,
    incentives: { '[]': incentive },
  },
  programs: {
    authorities: named,
    coverage: { state: true, utility: true },
    location: { state: true },
    programs: { '*': { name: true, url: true, authority_type: true, authority: true, items: true } },
  },
  utilities: {
    location: { state: true },
    utilities: { '*': { name: true } },
    gas_utilities: { '*': { name: true } },
    gas_utility_affects_incentives: true,
  },
  loan: true,
} satisfies Record<string, Shape>;

/** The value with every property the shape does not allow removed. */
export function keepReferenceProperties(value: unknown, shape: Shape): unknown {
  if (shape === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const itemShape = shape['[]'];
    return itemShape ? value.map((item) => keepReferenceProperties(item, itemShape)) : value;
  }
  const entries = Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    const childShape = shape['*'] ?? shape[key];
    return childShape === undefined ? [] : [[key, keepReferenceProperties(child, childShape)] as const];
  });
  return Object.fromEntries(entries);
}

/** The first difference as a path and both values, or null when equal. */
export function firstDifference(actual: unknown, expected: unknown, path = '$'): string | null {
  if (
    typeof actual !== typeof expected ||
    Array.isArray(actual) !== Array.isArray(expected) ||
    (actual === null) !== (expected === null)
  ) {
    return `${path}: got ${JSON.stringify(actual)?.slice(0, 200)}, expected ${JSON.stringify(expected)?.slice(0, 200)}`;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
      const diff = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (diff) return diff;
    }
    return null;
  }
  if (actual !== null && typeof actual === 'object') {
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(e)])) {
      const diff = firstDifference(a[key], e[key], `${path}.${key}`);
      if (diff) return diff;
    }
    return null;
  }
  return actual === expected
    ? null
    : `${path}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}
