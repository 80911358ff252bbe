/**
 * How the dev data sets are split, for every script that reads them: the held-out fifth is
 * every page whose file id's number is a multiple of 5 (`0045`, `t105`), fixed and spread over
 * the whole set, never read while tuning; the validation part (≡ 1 mod 5) is tuning pages the
 * block scorer is fitted without, to choose its threshold and to measure it honestly.
 */

const idNumber = (id: string) => Number(id.replace(/^\D+/, ""));

/** True for a page of the held-out fifth. */
export const isHeldOut = (id: string) => idNumber(id) % 5 === 0;

/** True for a page of the validation part of the tuning pages. */
export const isValidation = (id: string) => idNumber(id) % 5 === 1;

/** The fifth a page falls in: 0 is the held-out fifth, 1 the validation part. */
export const fifthOf = (id: string) => idNumber(id) % 5;
