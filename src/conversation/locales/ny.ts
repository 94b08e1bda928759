import type { Catalogue } from './index.js';

/** Nyanja. */
export const ny: Catalogue = {};
