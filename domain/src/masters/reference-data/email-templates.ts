import type { ReferenceRow } from './types';

export type EmailTemplateRow = ReferenceRow<{ templateKey: string; name: string; subject: string; body: string }>;

/**
 * The e-mails the outbox sends today (platform/src/notifications/templates.ts, keyed by template name), as the
 * Email Template master's first rows; {placeholders} are filled when a message is written to the outbox. The
 * outbox still renders from its own TEMPLATES: a unit test keeps these rows equal to them until it reads the
 * master.
 */
export const EMAIL_TEMPLATES: readonly EmailTemplateRow[] = [
  {
    id: 1,
    templateKey: 'login-otp',
    name: 'Sign-in code',
    subject: 'Your BA Portal sign-in code',
    body: 'Hello {name},\n\nYour BA Portal sign-in code is {code}. It is valid for {minutes} minutes.\n\nDo not share this code with anyone: the BA Portal team will never ask you for it. If you did not try to sign in, please change your password and tell the admin team.\n\nBA Portal',
  },
  {
    id: 2,
    templateKey: 'registration-otp',
    name: 'Registration code',
    subject: 'Your BA Portal registration code',
    body: 'Hello,\n\nUse the code {code} to confirm this e-mail address and finish registering with BA Portal. It is valid for {minutes} minutes.\n\nDo not share this code with anyone. If you did not register, you can ignore this e-mail.\n\nBA Portal',
  },
  {
    id: 3,
    templateKey: 'password-reset',
    name: 'Password reset link',
    subject: 'Reset your BA Portal password',
    body: 'Hello {name},\n\nWe received a request to reset the password of your BA Portal account. To choose a new one, open this link within {minutes} minutes:\n\n{link}\n\nThe link works only once. If you did not ask for this, you can ignore this e-mail and nothing will change.\n\nBA Portal',
  },
  {
    id: 4,
    templateKey: 'password-changed',
    name: 'Password changed',
    subject: 'Your BA Portal password was changed',
    body: 'Hello {name},\n\nThe password of your BA Portal account was just changed.\n\nIf you made this change, there is nothing more to do. If you did not, please contact the admin team at once.\n\nBA Portal',
  },
  {
    id: 5,
    templateKey: 'invitation',
    name: 'Invitation to set a password',
    subject: 'Welcome to BA Portal',
    body: 'Hello {name},\n\nAn account has been created for you on BA Portal. To get started, choose your own password with this link within {hours} hours:\n\n{link}\n\nAfter that, sign in with this e-mail address.\n\nBA Portal',
  },
  {
    id: 6,
    templateKey: 'contact-change-link',
    name: 'Contact change link',
    subject: 'Change your e-mail address and mobile number on BA Portal',
    body: 'Hello {name},\n\nYou can now change the e-mail address and mobile number of your BA Portal account. Open this link within {hours} hours to make the change:\n\n{link}\n\nIf you did not ask for this, please contact the admin team.\n\nBA Portal',
  },
  {
    id: 7,
    templateKey: 'contact-change-otp',
    name: 'Contact change code',
    subject: 'Your BA Portal verification code',
    body: 'Hello,\n\nUse the code {code} to confirm this e-mail address as the new one for your BA Portal account. It is valid for {minutes} minutes.\n\nDo not share this code with anyone. If you did not ask for this, you can ignore this e-mail.\n\nBA Portal',
  },
  {
    id: 8,
    templateKey: 'contact-changed',
    name: 'Contact details changed',
    subject: 'Your BA Portal contact details were changed',
    body: 'Hello {name},\n\nThe e-mail address and mobile number of your BA Portal account were changed to:\n\nE-mail address: {newEmail}\nMobile number: {newMobile}\n\nFrom now on, sign in with the new e-mail address. If you did not make this change, please contact the admin team at once.\n\nBA Portal',
  },
  {
    id: 9,
    templateKey: 'user-blocked',
    name: 'Account blocked',
    subject: 'Your BA Portal account has been blocked',
    body: 'Hello {name},\n\nYour account has been blocked, so you cannot sign in to BA Portal for now. Please contact admin team for support.\n\nBA Portal',
  },
  {
    id: 10,
    templateKey: 'rfp-notice',
    name: 'RFP notice to a BA',
    subject: 'BA Portal: {title}',
    body: 'Hello,\n\n{body}\n\nOpen the RFP in BA Portal: {link}\n\nBA Portal',
  },
];
