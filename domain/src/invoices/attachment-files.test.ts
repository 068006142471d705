import FileType from 'file-type';
import { acceptOf, EXTENSIONS, extensionOf, FILE_KINDS, kindRule } from '../validation/files';

describe('invoiceAttachment file kind (issue 11)', () => {
  it('takes the contract’s extensions with its message', () => {
    expect(kindRule('invoiceAttachment')).toEqual({
      extensions: ['jpg', 'jpeg', 'png', 'bmp', 'tiff', 'pdf', 'xls', 'xlsx', 'csv', 'doc', 'docx'],
      message: 'Invalid file type selected.',
    });
    expect(acceptOf('invoiceAttachment')).toBe('.jpg,.jpeg,.png,.bmp,.tiff,.pdf,.xls,.xlsx,.csv,.doc,.docx');
  });
  it.each(['a.BMP', 'scan.tiff', 'x.pdf'])('%s has a known extension', (name) => expect(extensionOf(name)).not.toBeNull());
  it('does not take executables or gifs', () => {
    expect(extensionOf('run.exe')).toBeNull();
    expect(FILE_KINDS.invoiceAttachment.extensions).not.toContain('gif');
  });
  it('bmp and tiff content is recognised by its magic bytes', async () => {
    const bmp = Buffer.alloc(64);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(64, 2);
    bmp.writeUInt32LE(54, 10);
    bmp.writeUInt32LE(40, 14);
    const tiff = Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]), Buffer.alloc(64)]);
    expect(EXTENSIONS.bmp.magic).toContain((await FileType.fromBuffer(bmp))?.ext);
    expect(EXTENSIONS.tiff.magic).toContain((await FileType.fromBuffer(tiff))?.ext);
    expect(EXTENSIONS.bmp.mime).toBe('image/bmp');
    expect(EXTENSIONS.tiff.mime).toBe('image/tiff');
  });
});
