/**
 * The texts of every e-mail and SMS, as data: a subject and a text with {placeholders} per template, so the
 * Email Template master can later load and edit them without touching code. Plain, friendly words; a message
 * never carries a password (only codes and single-use links, which expire).
 *
 * Rendering happens when a message is written to the outbox, so the stored text is exactly what was sent.
 */
export type Channel = 'email' | 'sms';

export const TEMPLATE_NAMES = [
  'login-otp',
  'registration-otp',
  'password-reset',
  'password-changed',
  'invitation',
  'contact-change-link',
  'contact-change-otp',
  'contact-changed',
  'user-blocked',
  'rfp-notice',
] as const;

export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export type MessageTemplate = {
  /** The parameters every rendering must be given (the contract's names); a missing one is a bug. */
  params: readonly string[];
  email: { subject: string; text: string };
  /** Short: one SMS segment where the content allows. */
  sms: string;
};

const SIGNATURE = '\n\nBA Portal';

export const TEMPLATES: Readonly<Record<TemplateName, MessageTemplate>> = {
  'login-otp': {
    params: ['name', 'code', 'minutes'],
    email: {
      subject: 'Your BA Portal sign-in code',
      text:
        'Hello {name},\n\n' +
        'Your BA Portal sign-in code is {code}. It is valid for {minutes} minutes.\n\n' +
        'Do not share this code with anyone: the BA Portal team will never ask you for it. ' +
        'If you did not try to sign in, please change your password and tell the admin team.' +
        SIGNATURE,
    },
    sms: '{code} is your BA Portal sign-in code. It is valid for {minutes} minutes. Do not share it with anyone.',
  },
  'registration-otp': {
    params: ['code', 'minutes'],
    email: {
      subject: 'Your BA Portal registration code',
      text:
        'Hello,\n\n' +
        'Use the code {code} to confirm this e-mail address and finish registering with BA Portal. ' +
        'It is valid for {minutes} minutes.\n\n' +
        'Do not share this code with anyone. If you did not register, you can ignore this e-mail.' +
        SIGNATURE,
    },
    sms: '{code} is your BA Portal registration code. It is valid for {minutes} minutes. Do not share it with anyone.',
  },
  'password-reset': {
    params: ['name', 'link', 'minutes'],
    email: {
      subject: 'Reset your BA Portal password',
      text:
        'Hello {name},\n\n' +
        'We received a request to reset the password of your BA Portal account. ' +
        'To choose a new one, open this link within {minutes} minutes:\n\n' +
        '{link}\n\n' +
        'The link works only once. If you did not ask for this, you can ignore this e-mail and nothing will change.' +
        SIGNATURE,
    },
    sms: 'BA Portal: to choose a new password, open this link within {minutes} minutes: {link}',
  },
  'password-changed': {
    params: ['name'],
    email: {
      subject: 'Your BA Portal password was changed',
      text:
        'Hello {name},\n\n' +
        'The password of your BA Portal account was just changed.\n\n' +
        'If you made this change, there is nothing more to do. If you did not, please contact the admin team at once.' +
        SIGNATURE,
    },
    sms: 'BA Portal: your password was just changed. If this was not you, please contact the admin team at once.',
  },
  invitation: {
    params: ['name', 'link', 'hours'],
    email: {
      subject: 'Welcome to BA Portal',
      text:
        'Hello {name},\n\n' +
        'An account has been created for you on BA Portal. ' +
        'To get started, choose your own password with this link within {hours} hours:\n\n' +
        '{link}\n\n' +
        'After that, sign in with this e-mail address.' +
        SIGNATURE,
    },
    sms: 'BA Portal: an account was created for you. Open this link within {hours} hours to get started: {link}',
  },
  'contact-change-link': {
    params: ['name', 'link', 'hours'],
    email: {
      subject: 'Change your e-mail address and mobile number on BA Portal',
      text:
        'Hello {name},\n\n' +
        'You can now change the e-mail address and mobile number of your BA Portal account. ' +
        'Open this link within {hours} hours to make the change:\n\n' +
        '{link}\n\n' +
        'If you did not ask for this, please contact the admin team.' +
        SIGNATURE,
    },
    sms: 'BA Portal: to change your e-mail address and mobile number, open this link within {hours} hours: {link}',
  },
  'contact-change-otp': {
    params: ['code', 'minutes'],
    email: {
      subject: 'Your BA Portal verification code',
      text:
        'Hello,\n\n' +
        'Use the code {code} to confirm this e-mail address as the new one for your BA Portal account. ' +
        'It is valid for {minutes} minutes.\n\n' +
        'Do not share this code with anyone. If you did not ask for this, you can ignore this e-mail.' +
        SIGNATURE,
    },
    sms: '{code} is your BA Portal code to confirm this mobile number. It is valid for {minutes} minutes. Do not share it with anyone.',
  },
  'contact-changed': {
    params: ['name', 'newEmail', 'newMobile'],
    email: {
      subject: 'Your BA Portal contact details were changed',
      text:
        'Hello {name},\n\n' +
        'The e-mail address and mobile number of your BA Portal account were changed to:\n\n' +
        'E-mail address: {newEmail}\n' +
        'Mobile number: {newMobile}\n\n' +
        'From now on, sign in with the new e-mail address. ' +
        'If you did not make this change, please contact the admin team at once.' +
        SIGNATURE,
    },
    sms: 'BA Portal: your e-mail address and mobile number were changed. If this was not you, please contact the admin team at once.',
  },
  'user-blocked': {
    params: ['name'],
    email: {
      subject: 'Your BA Portal account has been blocked',
      text:
        'Hello {name},\n\n' +
        'Your account has been blocked, so you cannot sign in to BA Portal for now. ' +
        'Please contact admin team for support.' +
        SIGNATURE,
    },
    sms: 'BA Portal: your account has been blocked. Please contact admin team for support.',
  },
  // Issue 10: what a BA is told of an RFP (floated to it, awarded, closed, reopened, backhaul), e-mailed with
  // the in-app notification's own words (projections/src/notifications/rfp-rules.ts), so the two never differ.
  // {link} is the RFP's page in the portal (the BA signs in first if needed).
  'rfp-notice': {
    params: ['title', 'body', 'link'],
    email: {
      subject: 'BA Portal: {title}',
      text: 'Hello,\n\n' + '{body}\n\n' + 'Open the RFP in BA Portal: {link}' + SIGNATURE,
    },
    sms: 'BA Portal: {title}. Sign in to see it.',
  },
};

/** A template asked for with a wrong name or without a parameter it needs: a bug in the caller, not a refusal. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The placeholders a text uses, in order of first use. */
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];

export const isTemplateName = (name: string): name is TemplateName => (TEMPLATE_NAMES as readonly string[]).includes(name);

export type RenderedMessage = { subject: string | null; text: string };

/**
 * The subject (e-mail only; null for SMS) and text of a template for one channel. Every declared parameter
 * and every placeholder the texts use must be given as a string; parameters the template does not use are
 * ignored. Values are inserted as they are, in one pass, so a value containing "{x}" stays literal.
 */
export function renderTemplate(
  name: TemplateName,
  params: Readonly<Record<string, string>>,
  channel: Channel = 'email',
  templates: Readonly<Record<TemplateName, MessageTemplate>> = TEMPLATES,
): RenderedMessage {
  const template = isTemplateName(name) ? templates[name] : undefined;
  if (!template) throw new TemplateError(`unknown message template "${String(name)}"`);
  const texts = channel === 'sms' ? [template.sms] : [template.email.subject, template.email.text];
  const needed = new Set([...template.params, ...texts.flatMap(placeholdersOf)]);
  const missing = [...needed].filter((p) => typeof params[p] !== 'string');
  if (missing.length > 0) throw new TemplateError(`message template "${name}" needs ${missing.map((m) => `{${m}}`).join(', ')}`);
  const fill = (text: string) => text.replace(PLACEHOLDER, (_match, key: string) => params[key] ?? '');
  return channel === 'sms'
    ? { subject: null, text: fill(template.sms) }
    : { subject: fill(template.email.subject).replace(/[\r\n]+/g, ' '), text: fill(template.email.text) };
}

/**
 * The one-time code in a rendered sign-in, registration or contact-change message, read by the templates'
 * own wording ("code is 123456", "the code 123456", "123456 is your…") rather than by the first run of digits:
 * a greeting such as "Hello owner.409686," carries digits too. Null when the text holds no code.
 */
export function codeInMessage(text: string): string | null {
  const match = /\bcode(?: is)? (\d{4,8})\b/.exec(text) ?? /^(\d{4,8}) is your\b/.exec(text);
  return match?.[1] ?? null;
}
