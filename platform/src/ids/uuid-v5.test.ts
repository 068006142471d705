import { v5 } from 'uuid';
import { uuidV5In } from './uuid-v5';

describe('uuidV5In', () => {
  const namespaces = ['c0f5a7a2-6f1e-4c1b-9a4d-2e8b7d3f5a10', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'C0F5A7A2-6F1E-4C1B-9A4D-2E8B7D3F5A10'];
  const names = ['', 'a', 'nucleus-vendor-ABCDE1234F|parent|1000||e3b0c442', 'Ünïcödé → ₹ 𝄞 日本', 'x'.repeat(5000)];

  it.each(namespaces)('gives exactly what uuid v5 gives in namespace %s', (namespace) => {
    const inNamespace = uuidV5In(namespace);
    for (const name of names) expect(inNamespace(name)).toBe(v5(name, namespace));
  });

  it('matches the RFC 9562 example (DNS namespace, www.example.com)', () => {
    expect(uuidV5In('6ba7b810-9dad-11d1-80b4-00c04fd430c8')('www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5In('not-a-uuid')).toThrow();
  });
});
