import { MISSING } from '../../../domain/src/shared/format';

export type NamedBa = {
  companyName: string | null;
  registeredEmail?: string | null;
  registeredMobile?: string | null;
};

export const filled = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * How staff recognise a BA: its company name once it has filled that in; before that, the e-mail id and
 * mobile number it registered with (issue 5: an empty BA used to show as "NA" beside a UUID). `fallback`
 * only for rows that carry neither.
 */
export function baLabel(ba: NamedBa, fallback: string = MISSING): string {
  if (filled(ba.companyName)) return ba.companyName;
  const registered = [ba.registeredEmail, ba.registeredMobile].filter(filled);
  return registered.length > 0 ? registered.join(' · ') : fallback;
}
