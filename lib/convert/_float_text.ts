// A float as Python writes it (`repr`): the shortest digits that read back the same number, a
// decimal point on whole numbers (`1000.0`), an exponent below 1e-4 and from 1e16 on (`1e-05`,
// `1e+16`), and `inf`/`nan`. The text output of the CLI prints float metadata this way, as the
// Python client does, so a script comparing the printed value sees what it saw there.

/**
 * `value` written as Python's `repr(float)` writes it.
 *
 * @example Usage
 * ```ts
 * import { floatText } from "./_float_text.ts";
 * console.log(floatText(1000), floatText(1e-5), floatText(2.5)); // 1000.0 1e-05 2.5
 * ```
 */
export function floatText(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (Object.is(value, -0)) return "-0.0";
  const [mantissa = "", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const digits = String(Math.abs(exponent)).padStart(2, "0");
    return `${mantissa}e${exponent < 0 ? "-" : "+"}${digits}`;
  }
  // JavaScript writes these magnitudes without an exponent, with the same shortest digits.
  const fixed = String(value);
  return fixed.includes(".") ? fixed : `${fixed}.0`;
}
