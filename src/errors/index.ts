/*
 * The errors' common base: a stable code next to the message, so that each module's error class
 * declares only its name, its code union and what it carries besides.
 */
export { CodedError, CodedStatusError } from './coded-error.js';
