/** "Did you mean" suggestions for misspelt keys, types and names. */

/**
 * Edit distance counting a swap of two neighbouring letters as one edit (optimal string
 * alignment), because swapped letters (`requierd`, `strnig`) are the most common typo.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [];
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        row.push(i + j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const prev = rows[i - 1]!;
      let best = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** The closest candidate, if it is close enough to be a plausible typo of `input`. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const lower = input.toLowerCase();
  const limit = Math.max(1, Math.floor(input.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** `did you mean "x"? ` (with the trailing space) or nothing. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const match = closest(input, candidates);
  return match === undefined ? '' : `did you mean "${match}"? `;
}
