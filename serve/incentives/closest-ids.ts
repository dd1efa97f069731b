/**
 * The ids among `candidates` a mistyped `given` most likely meant, best first, at most `limit`: those
 * containing it whole as a part ("eversource" → "ma-eversource") before those a few typing slips away.
 */
export function closestIds(given: string, candidates: readonly string[], limit = 3): string[] {
  const wanted = given.trim().toLowerCase();
  if (wanted === '') return [];
  const scored = candidates.flatMap((id) => {
    const lower = id.toLowerCase();
    if (lower.includes(wanted)) return [{ id, score: 0 }];
    const distance = editDistance(wanted, lower);
    return distance <= Math.max(2, Math.floor(wanted.length / 3)) ? [{ id, score: distance }] : [];
  });
  return scored
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map(({ id }) => id);
}

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(substitution, previous[j]! + 1, row[j - 1]! + 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}
