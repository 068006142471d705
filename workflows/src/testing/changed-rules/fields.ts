import * as today from '../../../../domain/src/validation/fields';

/*
 * The field rules as they might be tightened after the journeys in `decide-in-activity.int.test.ts` ran, each
 * refusing a value the scenarios sent. Bundled in place of domain/src/validation/fields.ts (see ./bundle.ts);
 * everything not named here is today's.
 */
export * from '../../../../domain/src/validation/fields';

/** The PAN's fourth letter is the holder type (C company, P person, F firm, …): ABCDE1234F is no PAN. */
const pan = /^[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]$/;
/** No obvious dummy numbers: five equal digits or five in a row (9876543210, 9000000001, 9123456780). */
const mobile =
  /^(?!.*(\d)\1{4})(?!.*(?:01234|12345|23456|34567|45678|56789|98765|87654|76543|65432|54321|43210))[6-9]\d{9}$/;
/** Reserved top-level domains (RFC 2606) receive no mail: `owner@acme.test` is refused. */
const reservedDomain = /\.(test|example|invalid|localhost)$/i;

export const patterns = { ...today.patterns, pan, mobile };

export const fields = {
  ...today.fields,
  pan: today.fields.pan.regex(pan, { error: today.messages.pan }),
  mobile: today.fields.mobile.regex(mobile, { error: today.messages.mobile }),
  email: today.fields.email.refine((v) => !reservedDomain.test(v), { error: today.messages.email }),
};
