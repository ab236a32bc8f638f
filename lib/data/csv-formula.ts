/**
 * CSV formula injection (OWASP): a spreadsheet runs a cell that starts with =, +, -, @, tab or
 * carriage return as a formula, so an annotator's class name like =HYPERLINK(...) would run on
 * the owner's machine. Such text cells get a leading apostrophe, which spreadsheets show as text.
 * Only strings are touched: numbers (a negative ARI, an interval bound) stay numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
