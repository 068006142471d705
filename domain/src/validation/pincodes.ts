/**
 * Which PIN codes belong to which state (issue 8 defect: a Delhi pincode was accepted for a Mumbai address).
 * India Post allots PIN codes by postal circle: the first three digits (the sorting district) fall in ranges per
 * state. Keyed by the states master's id, which is the GST state code (reference-data/states.ts) and never
 * changes, so the check needs nothing resolved beyond the state id the details already carry.
 *
 * The ranges are deliberately generous where circles overlap (Goa is served from the Maharashtra circle's 403,
 * Mohali shares Chandigarh's 160, Ladakh shares 194 with Jammu and Kashmir): a wrong refusal blocks a real
 * business, a missed one is caught by the reviewer who reads the address.
 */
export const PINCODE_STATE_MESSAGE = 'Pincode does not belong to the selected state';

type Range = readonly [from: number, to: number];
const r = (from: number, to = from): Range => [from, to];

export const PINCODE_PREFIXES: Readonly<Record<number, readonly Range[]>> = {
  1: [r(180, 194)], // Jammu and Kashmir
  2: [r(171, 177)], // Himachal Pradesh
  3: [r(140, 160)], // Punjab (Mohali shares 160 with Chandigarh)
  4: [r(160)], // Chandigarh
  5: [r(244, 249), r(262, 263)], // Uttarakhand
  6: [r(121, 136)], // Haryana
  7: [r(110)], // Delhi
  8: [r(301, 345)], // Rajasthan
  9: [r(201, 285)], // Uttar Pradesh
  10: [r(800, 855)], // Bihar
  11: [r(737)], // Sikkim
  12: [r(790, 792)], // Arunachal Pradesh
  13: [r(797, 798)], // Nagaland
  14: [r(795)], // Manipur
  15: [r(796)], // Mizoram
  16: [r(799)], // Tripura
  17: [r(793, 794)], // Meghalaya
  18: [r(781, 788)], // Assam
  19: [r(700, 743)], // West Bengal
  20: [r(813, 835)], // Jharkhand
  21: [r(751, 770)], // Odisha
  22: [r(490, 497)], // Chhattisgarh
  23: [r(450, 488)], // Madhya Pradesh
  24: [r(360, 396)], // Gujarat
  26: [r(362), r(396)], // Dadra and Nagar Haveli and Daman and Diu
  27: [r(400, 445)], // Maharashtra
  29: [r(560, 591)], // Karnataka
  30: [r(403)], // Goa
  31: [r(682)], // Lakshadweep
  32: [r(670, 695)], // Kerala
  33: [r(600, 643)], // Tamil Nadu
  34: [r(533), r(605), r(607), r(609), r(673)], // Puducherry (Yanam, Puducherry, Karaikal, Mahe)
  35: [r(744)], // Andaman and Nicobar Islands
  36: [r(500, 509)], // Telangana
  37: [r(515, 535)], // Andhra Pradesh
  38: [r(194)], // Ladakh
};

/**
 * Whether a six-digit PIN code lies in the state: true or false, or null when we cannot tell (a state the
 * table does not know, or a PIN code that is not six digits — its own field rule reports that).
 */
export function pincodeFitsState(pinCode: string | null | undefined, stateId: number | string | null | undefined): boolean | null {
  if (typeof pinCode !== 'string' || !/^\d{6}$/.test(pinCode) || stateId === null || stateId === undefined) return null;
  const ranges = PINCODE_PREFIXES[Number(stateId)];
  if (!ranges) return null;
  const prefix = Number(pinCode.slice(0, 3));
  return ranges.some(([from, to]) => prefix >= from && prefix <= to);
}

/** `{ [field]: message }` when the PIN code is outside the state, else nothing. */
export const pincodeStateErrors = (
  pinCode: string | null | undefined,
  stateId: number | string | null | undefined,
  field = 'pinCode',
): Record<string, string> => (pincodeFitsState(pinCode, stateId) === false ? { [field]: PINCODE_STATE_MESSAGE } : {});
