/** Small string helpers shared by codecs and stores (pure: no I/O). */

/** `value` unless it is missing or empty. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
