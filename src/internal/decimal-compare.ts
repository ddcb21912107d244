// Exact comparison of non-negative decimal strings: the client entry needs only this, not decimal.js (13 KB).
export function compareDecimalStrings(a: string, b: string): -1 | 0 | 1 {
  const [ai, af] = split(a);
  const [bi, bf] = split(b);
  // Without leading zeros, a longer integer part is a larger number; equal lengths compare digit by digit.
  if (ai.length !== bi.length) return ai.length < bi.length ? -1 : 1;
  if (ai !== bi) return ai < bi ? -1 : 1;
  // Without trailing zeros, fractions compare as strings: '05' < '5' < '51'.
  if (af !== bf) return af < bf ? -1 : 1;
  return 0;
}

function split(value: string): [string, string] {
  const dot = value.indexOf('.');
  const int = (dot < 0 ? value : value.slice(0, dot)).replace(/^0+/, '');
  const frac = dot < 0 ? '' : value.slice(dot + 1).replace(/0+$/, '');
  return [int, frac];
}
