import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderPdf, type Block } from './pdf';

/**
 * The user manual the Help menu links to (USER_MANUAL_URL, by default ${PUBLIC_URL}/user-manual.pdf, served
 * from portal/public). The text lives here; `npx tsx scripts/user-manual/manual.ts` writes the PDF, and a
 * unit test fails when the shipped file no longer matches this source.
 */
const t = (text: string): Block => ({ kind: 'title', text });
const s = (text: string): Block => ({ kind: 'subtitle', text });
const h = (text: string): Block => ({ kind: 'heading', text });
const p = (text: string): Block => ({ kind: 'paragraph', text });
const b = (text: string): Block => ({ kind: 'bullet', text });

export const MANUAL: readonly Block[] = [
  t('BA Portal - User Manual'),
  s('Business Partner Onboarding for transport partners, vendors and MLL staff'),

  h('1. What the BA Portal is for'),
  p(
    'The BA Portal is where business associates (BAs) - transporters and vendors - register with an MLL company, ' +
      'submit their company details for verification and manage their own users. MLL staff use the staff console ' +
      'to verify and approve BAs, read each BA\'s activity log and maintain master data.',
  ),

  h('2. Registering your company'),
  b('Open the portal and choose the Register tab.'),
  b('Enter your mobile number (10 digits, starting with 6, 7, 8 or 9), your e-mail id and the MLL company you work with.'),
  b('We send one code by SMS and one by e-mail. Enter both codes and choose your password to finish.'),
  b('The password needs 8 to 20 characters with a lowercase letter, an uppercase letter, a digit and one of @ $ ! % * ? &.'),
  p('The person who registers becomes the BA Admin of the company.'),

  h('3. Signing in'),
  b('Enter your e-mail id and password, then the 6-digit code sent to your mobile and e-mail (either code works).'),
  b('After three failed passwords a short captcha appears before the next attempt.'),
  b('Forgot your password? Use Forgot Password on the sign-in page: we e-mail you a link to set a new one.'),
  b('Passwords expire after 90 days; the portal then asks you to choose a new one before you continue.'),

  h('4. Submitting your company details'),
  p(
    'After registering you land on the onboarding page. Fill in the company details: company name, PAN, contact ' +
      'person, service, state, city, address, pincode and contact mobile are needed; CIN, a second address line, ' +
      'landline and fleet sizes are optional. You can save a draft at any time and submit when everything is ready.',
  ),
  p('Once submitted, MLL verifies your company in two stages:'),
  b('Stage 1 - verification of the submitted details (MLL Procurement).'),
  b('Stage 2 - commercial sign-off (MLL Commercial or Accounts).'),
  p(
    'The onboarding page always shows where your request stands. If a reviewer sends it back, the remarks say ' +
      'what to change: correct the details and submit again. When both stages approve, your company is verified and ' +
      'your home page opens.',
  ),

  h('5. Users of your company (BA Admin)'),
  b('Profile menu > Add New User: add colleagues once your company is verified. Each gets an e-mail with a link to set a password.'),
  b('Choose which applications each colleague may use (onboarding, RFP, Bill-Hub, complaints, dashboard).'),
  b('Profile menu > Add GST-State BA for Billhub: one Bill-Hub user per GST state your company bills from.'),
  b('Users can be blocked and unblocked at any time; a blocked user is signed out at once.'),

  h('6. Changing the registered e-mail id or mobile number'),
  p(
    'A change is started by MLL staff or your BA Admin, who sends you a link by e-mail. The link first asks for ' +
      'your current e-mail id and mobile number, then for the new ones; a code goes to each new address. After both ' +
      'codes and a new password, you sign in with the new e-mail id.',
  ),

  h("7. What's New"),
  p(
    "The What's New menu in the header lists the portal's releases, newest first, as \"BA Portal Release " +
      '{version} - {device}". Each entry opens the release notes: the release date, the new features and the bug ' +
      'fixes. Release notes can be read without signing in.',
  ),

  h('8. For MLL staff'),
  b('Sign in to the staff console at /console with your staff account.'),
  b('My Pending Task lists the BAs waiting for your stage; the sidebar counts show each list\'s size.'),
  b('Open a BA to read its details and activity log, then Approve or Reject with remarks.'),
  b('The company-code selector in the header limits every list to one company code or shows All.'),
  b("MLL-ADMIN also manages staff users, master data and the release notes shown under What's New."),

  h('9. Help and support'),
  p(
    'Help in the profile menu opens this manual and shows the support mailbox. Write to it with your company name, ' +
      'registered mobile number and a short description of the problem; a screenshot helps. The Complaints menu ' +
      'is not available yet.',
  ),
];

export const MANUAL_FILE = path.resolve(__dirname, '..', '..', 'portal', 'public', 'user-manual.pdf');

export const renderManual = (): Buffer => renderPdf(MANUAL, { title: 'BA Portal - User Manual', footer: 'BA Portal User Manual' });

if (require.main === module) {
  writeFileSync(MANUAL_FILE, renderManual());
  console.log(`wrote ${MANUAL_FILE}`);
}
