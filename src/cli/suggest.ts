/** Levenshtein distance: insertions, deletions and substitutions each cost 1. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known commands closest to what was typed: each candidate ("seller products list") is compared
 * with as many typed words as it has, and kept when at most a third of it (at least 2 edits) differs.
 * Only the nearest are returned, the longest command among equals (ties in the help's order).
 */
export function closest(typed: readonly string[], candidates: readonly string[], max = 3): string[] {
  const scored = candidates.map((candidate, order) => {
    const attempt = typed.slice(0, candidate.split(' ').length).join(' ');
    return { candidate, order, distance: editDistance(attempt.toLowerCase(), candidate) };
  });
  const near = scored.filter((s) => s.distance > 0 && s.distance <= Math.max(2, Math.floor(s.candidate.length / 3)));
  const best = Math.min(...near.map((s) => s.distance));
  const nearest = near.filter((s) => s.distance === best);
  // "seller prodcts list" is nearer "seller products list" than the group "seller products".
  const words = Math.max(...nearest.map((s) => s.candidate.split(' ').length));
  return nearest
    .filter((s) => s.candidate.split(' ').length === words)
    .sort((a, b) => a.order - b.order)
    .slice(0, max)
    .map((s) => s.candidate);
}
