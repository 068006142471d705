import { HttpError } from 'react-admin';
import { installFetch } from '../testing/fakeFetch';
import { me } from '../testing/identity';
import { sessionStore } from '../providers/httpClient';
import { annexureErrorTexts, annexureMethods } from './dataProvider';

/**
 * The multipart commands against a stand-in XMLHttpRequest (jsdom's would go to the network): what is sent,
 * with which headers, the progress reported, and how answers become results or react-admin HttpErrors.
 */
type Sent = { method: string; url: string; headers: Record<string, string>; body: FormData };
type Answer = { status: number; body?: string; progress?: [number, number][] };

let sent: Sent[] = [];
let answers: Answer[] = [];

class FakeXhr {
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private request: Partial<Sent> & { headers: Record<string, string> } = { headers: {} };

  open(method: string, url: string) {
    this.request.method = method;
    this.request.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.request.headers[name] = value;
  }
  send(body: FormData) {
    sent.push({ ...(this.request as Sent), body });
    const answer = answers.shift();
    setTimeout(() => {
      if (!answer) return this.onerror?.();
      for (const [loaded, total] of answer.progress ?? []) this.upload.onprogress?.({ lengthComputable: true, loaded, total });
      this.status = answer.status;
      this.responseText = answer.body ?? '';
      this.onload?.();
    }, 0);
  }
}

const realXhr = globalThis.XMLHttpRequest;
beforeEach(() => {
  sent = [];
  answers = [];
  (globalThis as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
  sessionStore.set({ accessToken: 'token-1', user: me({ roles: ['MLL-ADMIN'] }) });
});
afterEach(() => {
  (globalThis as { XMLHttpRequest: unknown }).XMLHttpRequest = realXhr;
  sessionStore.set(null);
});

const pdf = new File([new Uint8Array(1024)], 'policy.pdf', { type: 'application/pdf' });
const ID = 'a0c1d5e2-7d5b-4c1e-9a51-6f3f1c2b0007';
const row = { id: ID, title: 'Policy', fileName: 'policy.pdf', fileType: 'application/pdf', size: 1024, status: 'active', uploadedAt: '2026-03-02T06:30:00.000Z', updatedAt: '2026-03-02T06:30:00.000Z' };

test('an upload is one multipart POST of title and file with the token and the key, reporting its progress', async () => {
  answers.push({ status: 201, body: JSON.stringify(row), progress: [[512, 2048], [2048, 2048]] });
  const progress: number[] = [];
  const result = await annexureMethods.uploadAnnexure({
    title: 'Policy',
    file: pdf,
    idempotencyKey: 'key-1',
    onProgress: (f) => progress.push(f),
  });
  expect(result).toEqual({ data: row });
  expect(sent).toHaveLength(1);
  const [request] = sent;
  expect(request).toMatchObject({ method: 'POST', url: '/api/annexures' });
  expect(request?.headers).toMatchObject({ Authorization: 'Bearer token-1', 'Idempotency-Key': 'key-1', Accept: 'application/json' });
  expect([...request!.body.keys()]).toEqual(['title', 'file']);
  expect(request?.body.get('title')).toBe('Policy');
  expect((request?.body.get('file') as File).name).toBe('policy.pdf');
  expect(progress).toEqual([0.25, 1]);
});

test('a replacement sends only what changes', async () => {
  answers.push({ status: 200, body: JSON.stringify({ ...row, title: 'Policy 2026' }) });
  await annexureMethods.replaceAnnexure(ID, { title: 'Policy 2026', file: null, idempotencyKey: 'key-2' });
  expect(sent[0]).toMatchObject({ method: 'PUT', url: `/api/annexures/${ID}` });
  expect([...sent[0]!.body.keys()]).toEqual(['title']);

  answers.push({ status: 200, body: JSON.stringify(row) });
  await annexureMethods.replaceAnnexure(ID, { file: pdf, idempotencyKey: 'key-3' });
  expect([...sent[1]!.body.keys()]).toEqual(['file']);
});

test.each([
  [413, '', annexureErrorTexts.tooLarge],
  [415, '', annexureErrorTexts.wrongType],
  [415, JSON.stringify({ status: 415, message: 'Invalid file type selected. Please select image/pdf file only.' }), 'Invalid file type selected. Please select image/pdf file only.'],
  [500, 'not json', annexureErrorTexts.ourEnd],
])('an answer %i becomes an HttpError with the server message or plain words', async (status, body, message) => {
  answers.push({ status, body });
  const error = await annexureMethods.uploadAnnexure({ title: 'Policy', file: pdf, idempotencyKey: 'k' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  expect(error).toMatchObject({ status, message });
});

test('no answer at all is the spec\'s "Unexpected error occured" with status 0', async () => {
  const error = await annexureMethods.uploadAnnexure({ title: 'Policy', file: pdf, idempotencyKey: 'k' }).catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 0, message: 'Unexpected error occured' });
});

test('an expired token is renewed once and the same upload sent again with the same key', async () => {
  installFetch((url) =>
    url.pathname === '/api/auth/refresh'
      ? { body: { accessToken: 'token-2', expiresIn: 900, user: me({ roles: ['MLL-ADMIN'] }) } }
      : undefined,
  );
  answers.push({ status: 401, body: JSON.stringify({ status: 401, message: 'Session Timed out' }) });
  answers.push({ status: 201, body: JSON.stringify(row) });
  await annexureMethods.uploadAnnexure({ title: 'Policy', file: pdf, idempotencyKey: 'key-4' });
  expect(sent.map((s) => [s.headers['Authorization'], s.headers['Idempotency-Key']])).toEqual([
    ['Bearer token-1', 'key-4'],
    ['Bearer token-2', 'key-4'],
  ]);
});
