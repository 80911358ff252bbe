/**
 * How the dev data sets are split, for every script that reads them: the held-out fifth is
 * every page whose file id's number is a multiple of 5 (`0045`, `t105`), fixed and spread over
 * the whole set, never read while tuning; the other four fifths are the tuning pages, over
 * which the learned scorers cross-validate.
 */

const idNumber = (id: string) => Number(id.replace(/^\D+/, ""));

/** True for a page of the held-out fifth. */
export const isHeldOut = (id: string) => idNumber(id) % 5 === 0;

/** The fifth a page falls in: 0 is the held-out fifth, 1–4 the tuning fifths. */
export const fifthOf = (id: string) => idNumber(id) % 5;
