import { describe, expect, it } from 'vitest';
import { staffAllowed } from '../../src/access/index.js';

describe('the staff allow-list', () => {
  it('refuses everyone when nobody is listed', () => {
    expect(staffAllowed({ users: [] })('T1', 'U1')).toBe(false);
  });

  it('lets a listed person in from any workspace when no workspace is listed', () => {
    const allowed = staffAllowed({ users: ['U1'] });
    expect([allowed('T1', 'U1'), allowed(undefined, 'U1'), allowed('T1', 'U2')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('refuses a listed person asking from an unlisted or unnamed workspace', () => {
    const allowed = staffAllowed({ users: ['U1'], teams: ['T1'] });
    expect([allowed('T1', 'U1'), allowed('T2', 'U1'), allowed(undefined, 'U1')]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('refuses a request that names nobody', () => {
    expect(staffAllowed({ users: ['U1'] })('T1', undefined)).toBe(false);
  });
});
