import { optionListOf } from './option-list';

describe('optionListOf', () => {
  it.each([
    ['30 days, 45 days,60 days', ['30 days', '45 days', '60 days']],
    ['  Customer   scope ,BA scope  ', ['Customer scope', 'BA scope']],
    ['A, a, ,B,', ['A', 'B']],
    ['Single', ['Single']],
    ['', []],
    [' , ', []],
    [null, []],
    [undefined, []],
  ] as const)('reads %p as %p', (text, expected) => {
    expect(optionListOf(text)).toEqual(expected);
  });
});
