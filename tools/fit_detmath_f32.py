#!/usr/bin/env python3
"""Fit the float32 coefficients of the fast tier's asin and sin (src/common/detmath_f32_coeffs.h).

Provenance only, like tools/fit_detmath.py: the library and its tests never run this script.

    python3 tools/fit_detmath_f32.py            # print the #defines
    python3 tools/fit_detmath_f32.py --check    # also compare them with the header

The float32 tier (docs/fast-tier.md) uses the same reductions as the double functions
(docs/detmath.md), with shorter polynomials sized for float32's 24 bits:

    acos(x) = sqrt(1 - x) * Pf_acos(x),  x in [0, 1]                Pf_acos of degree 6
    sin(x)  = x + (x*y) * Pf_sin(y),   y = x^2,  x in [-pi/2, pi/2]  Pf_sin  of degree 3

Pf_acos approximates acos(x)/sqrt(1 - x) (smooth on [0, 1], sqrt(2) at 1): one polynomial for the
whole interval, so no branch and the square root runs beside the polynomial instead of before it
(the double tier's asin-based reduction is a longer chain). Pf_sin approximates the same
correction function as in fit_detmath.py. Both are fitted by mpmath.chebyfit at 40 digits and
each coefficient rounded to the nearest float32 (printed as a C99 hexadecimal literal with the f
suffix, exactly representable). The degrees are the smallest that keep the float32 slerp within
its stated bound (docs/fast-tier.md); tests/test_detmath_f32.c measures the evaluated errors.
"""
import argparse
import re
import struct
import sys

try:
    import mpmath
    from mpmath import mp, mpf
except ImportError:  # pragma: no cover - provenance script
    sys.exit("fit_detmath_f32.py needs mpmath (apt install python3-mpmath)")

mp.dps = 40


def f_acos(x):
    return mpmath.acos(x) / mpmath.sqrt(1 - x) if x < 1 else mpmath.sqrt(2)


def f_sin(y):
    r = mpmath.sqrt(y)
    return (mpmath.sin(r) - r) / (r * y)


FITS = (
    ("ACOS", f_acos, (mpf(0), mpf(1)), 6),
    ("SIN", f_sin, (mpf(0), (mp.pi / 2) ** 2), 3),
)


def to_f32(x):
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def hexf(x):
    """A C99 hexadecimal float literal with the f suffix, trailing zero digits dropped."""
    mant, exp = float(x).hex().split("p")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}p{exp}f"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--header", default="src/common/detmath_f32_coeffs.h")
    args = ap.parse_args()
    lines = []
    for name, fn, interval, degree in FITS:
        coeffs, err = mpmath.chebyfit(fn, list(interval), degree + 1, error=True)
        coeffs = [to_f32(c) for c in reversed(coeffs)]
        lines.append(f"/* Pf_{name.lower()}: degree {degree} on [0, {mpmath.nstr(interval[1], 9)}], "
                     f"|P - f| <= {mpmath.nstr(err, 3)} (chebyfit's estimate, before rounding) */")
        for k in range(degree, -1, -1):
            lines.append(f"#define TENDON_F32_{name}_C{k} {hexf(coeffs[k])}")
        lines.append("")
    print("\n".join(lines))
    if args.check:
        text = open(args.header, encoding="utf-8").read()
        want = dict(re.findall(r"#define (TENDON_F32_\w+) (\S+)", "\n".join(lines)))
        have = dict(re.findall(r"#define (TENDON_F32_\w+) (\S+)", text))
        bad = [k for k in want if k not in have or
               float.fromhex(have[k].rstrip("f")) != float.fromhex(want[k].rstrip("f"))]
        for k in bad:
            print(f"MISMATCH {k}: header {have.get(k)}, fit {want[k]}", file=sys.stderr)
        print(f"--check: {len(want) - len(bad)}/{len(want)} constants match", file=sys.stderr)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
