/**
 * Several optional strings in one flat string, read back with a few slices: each field is
 * `<length>:<text>`, or `-` when absent. For state read and written on every request inside a
 * record's JSON, where JSON inside JSON would be escaped, parsed and checked each time.
 */

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const COLON = 58;
const DASH = 45;

/** One field as `<length>:<text>`, or `-` when absent (a function, not a closure per write). */
export function packField(value: string | undefined): string {
  return value === undefined ? '-' : `${value.length}:${value}`;
}

/**
 * Reads `text` from `from` to its end as exactly `into.length` fields, into `into` (the caller's
 * own array: no array per read); false when it is not. The form {@link packField} writes is read
 * in one pass over its characters; any other form goes through {@link readPackedFieldsGeneral},
 * which gives the same answer for every input.
 */
export function readPackedFields(
  text: string,
  from: number,
  into: (string | undefined)[],
): boolean {
  let at = from;
  for (let field = 0; field < into.length; field++) {
    if (text.charCodeAt(at) === DASH) {
      into[field] = undefined;
      at += 1;
      continue;
    }
    const start = at;
    let length = 0;
    for (let code = text.charCodeAt(at); code >= DIGIT_0 && code <= DIGIT_9; ) {
      length = length * 10 + (code - DIGIT_0);
      code = text.charCodeAt(++at);
    }
    // At most 9 digits here, so the length stays an exact integer.
    if (at === start || at - start > 9 || text.charCodeAt(at) !== COLON) {
      return readPackedFieldsGeneral(text, from, into);
    }
    const end = at + 1 + length;
    if (end > text.length) return false;
    into[field] = text.slice(at + 1, end);
    at = end;
  }
  return at === text.length;
}

/** Reads packed fields whatever their form: the reference {@link readPackedFields} agrees with. */
export function readPackedFieldsGeneral(
  text: string,
  from: number,
  into: (string | undefined)[],
): boolean {
  let at = from;
  for (let field = 0; field < into.length; field++) {
    if (text[at] === '-') {
      into[field] = undefined;
      at += 1;
      continue;
    }
    const colon = text.indexOf(':', at);
    const length = colon === -1 ? Number.NaN : Number(text.slice(at, colon));
    if (!Number.isInteger(length) || length < 0 || colon + 1 + length > text.length) return false;
    at = colon + 1 + length;
    into[field] = text.slice(colon + 1, at);
  }
  return at === text.length;
}
