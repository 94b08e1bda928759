/** Who may use the staff desk: named people, optionally only from named workspaces. */
export interface StaffAllowList {
  /** Slack user ids that may use the desk; empty: nobody (deny by default). */
  readonly users: readonly string[];
  /** Workspace (team) ids they must ask from; omitted: any workspace. */
  readonly teams?: readonly string[] | undefined;
}

/**
 * The staff desk's access rule as a check: true only for a listed person asking from a listed
 * workspace (any, when none are listed). Anyone unnamed, or asking without a name, is refused.
 */
export function staffAllowed(list: StaffAllowList): (teamId?: string, userId?: string) => boolean {
  const users = new Set(list.users);
  const teams = list.teams ? new Set(list.teams) : undefined;
  return (teamId, userId) =>
    userId !== undefined &&
    users.has(userId) &&
    (teams === undefined || (teamId !== undefined && teams.has(teamId)));
}
