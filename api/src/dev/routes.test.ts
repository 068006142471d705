import { escapeHtml, messageHtml, outboxPage } from './routes';
import type { OutboxEntry } from '../../../platform/src/notifications/outbox';

const entry = (over: Partial<OutboxEntry> = {}): OutboxEntry => ({
  id: '7f1c2a9e-0000-4000-8000-000000000001',
  to: 'gita@demo.test',
  channel: 'email',
  subject: 'Your BA Portal sign-in code',
  text: 'Your BA Portal sign-in code is 482913.',
  createdAt: '2026-01-05T08:30:15.000000Z',
  template: 'login-otp',
  status: 'delivered',
  attempts: 1,
  lastError: null,
  ...over,
});

describe('dev outbox page', () => {
  it('escapes every markup character', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
  });

  it('marks codes and makes links clickable, leaving numbers inside links alone', () => {
    const html = messageHtml('Code 482913.\nOpen http://localhost:3000/reset-password/ab12?x=1&y=123456 within 30 minutes.');
    expect(html).toContain('Code <strong class="code">482913</strong>.');
    expect(html).toContain(
      '<a href="http://localhost:3000/reset-password/ab12?x=1&amp;y=123456">http://localhost:3000/reset-password/ab12?x=1&amp;y=123456</a> within',
    );
    expect(html.match(/<strong/g)).toHaveLength(1);
  });

  it('cannot be broken out of by a message, a recipient or the filter', () => {
    const page = outboxPage(
      [
        entry({
          to: 'x"><img src=x onerror=alert(1)>@demo.test',
          subject: '<b>subject</b>',
          text: 'hi <script>alert(1)</script> http://evil.test/"><script>alert(2)</script>',
          lastError: '"><script>',
          status: 'failed',
        }),
      ],
      1,
      '"><script>alert(3)</script>',
    );
    expect(page).not.toMatch(/<script|<img|<b>/i);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;"');
  });

  it('shows time in Indian time, channel, recipient, subject, text and status, and refreshes every 5 s', () => {
    const page = outboxPage([entry(), entry({ channel: 'sms', to: '9876543210', subject: null, status: 'pending', attempts: 2 })], 2, '');
    expect(page).toContain('<meta http-equiv="refresh" content="5">');
    expect(page).toContain('05-Jan-2026 14:00:15');
    expect(page).toContain('<span class="channel sms">SMS</span>');
    expect(page).toContain('<div class="subject">Your BA Portal sign-in code</div>');
    expect(page).toContain('waiting (2 tries)');
    expect(page).toContain('2 messages, newest first.');
  });

  it('says so when there is nothing yet', () => {
    expect(outboxPage([], 0, 'nobody@demo.test')).toContain('No messages to <strong>nobody@demo.test</strong> yet.');
  });
});
