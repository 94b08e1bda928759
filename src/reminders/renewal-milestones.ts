/** Days before the end of cover a reminder goes out: 14, then 3. */
export type Milestone = 14 | 3;
/** The milestones, longest first. */
export const MILESTONES: readonly Milestone[] = [14, 3];

/** The milestone a cover ending in `daysLeft` days is at: the nearest one not yet passed. */
export function milestoneOf(daysLeft: number): Milestone | undefined {
  if (daysLeft < 0) return undefined;
  return [...MILESTONES].sort((a, b) => a - b).find((m) => daysLeft <= m);
}
