import type { Catalogue } from './index.js';

/** Bemba. */
export const bem: Catalogue = {};
