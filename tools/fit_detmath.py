#!/usr/bin/env python3
"""Fit the coefficients of tendon's own asin and sin (src/common/detmath_coeffs.h).

Provenance only: the library and its tests never run this script, and CI does not need mpmath.
It is here so anyone can see where every bit of detmath_coeffs.h came from, and regenerate them.

    python3 tools/fit_detmath.py            # print the #defines
    python3 tools/fit_detmath.py --check    # also compare them with src/common/detmath_coeffs.h

The two approximations (docs/detmath.md):

    asin(u) = u + (u*y) * P_asin(y),  y = u^2,  u in [0, 1/2]      P_asin of degree 10
    sin(x)  = x + (x*y) * P_sin(y),   y = x^2,  x in [-pi/2, pi/2]  P_sin  of degree 6

Writing the function as its leading term plus a correction, and fitting the correction as a
polynomial in y = u^2, keeps the odd symmetry exact and leaves the polynomial to carry only the
small relative part. So P approximates

    f_asin(y) = (asin(sqrt y) - sqrt y) / (sqrt y * y)   on [0, 1/4]         (f(0) = 1/6)
    f_sin(y)  = (sin(sqrt y) - sqrt y) / (sqrt y * y)    on [0, (pi/2)^2]    (f(0) = -1/6)

fitted with mpmath.chebyfit (interpolation at Chebyshev nodes: near-minimax) at 50 digits, and
each coefficient rounded to the nearest double, written as a C99 hexadecimal floating-point
literal so every compiler reads the same bits. chebyfit never evaluates f at y = 0 (its nodes are
interior), so the removable singularity there needs no special case. Tested with mpmath 1.3.0.

The constants pi/2, pi (rounded to double) and pi's remainder are printed too. The rsqrt seed
constant 0x5FE6EB50C7B537A9 is not fitted here (it is the well-known double-precision analogue of
the float "magic" seed); the script only measures its worst starting error over one period.
"""
import argparse
import re
import sys

try:
    import mpmath
    from mpmath import mp, mpf
except ImportError:  # pragma: no cover - provenance script
    sys.exit("fit_detmath.py needs mpmath (python3 -m pip install mpmath, or apt install python3-mpmath)")

mp.dps = 50


def f_asin(y):
    r = mpmath.sqrt(y)
    return (mpmath.asin(r) - r) / (r * y)


def f_sin(y):
    r = mpmath.sqrt(y)
    return (mpmath.sin(r) - r) / (r * y)


FITS = (
    # name, function, interval, degree
    ("ASIN", f_asin, (mpf(0), mpf(1) / 4), 10),
    ("SIN", f_sin, (mpf(0), (mp.pi / 2) ** 2), 6),
)


def fit(fn, interval, degree):
    """Coefficients c[0..degree] (c[k] multiplies y^k) rounded to double, and chebyfit's error."""
    coeffs, err = mpmath.chebyfit(fn, list(interval), degree + 1, error=True)
    # chebyfit lists the highest power first.
    return [float(c) for c in reversed(coeffs)], err


def rsqrt_seed_error(samples=1 << 16):
    """max |y0*sqrt(s) - 1| of the bit-pattern seed over s in [1, 4) (the error has period 4)."""
    import struct

    magic = 0x5FE6EB50C7B537A9
    worst = 0.0
    for i in range(samples):
        s = 1.0 + 3.0 * (i + 0.5) / samples
        (bits,) = struct.unpack("<Q", struct.pack("<d", s))
        (y0,) = struct.unpack("<d", struct.pack("<Q", magic - (bits >> 1)))
        worst = max(worst, abs(y0 * float(mpmath.sqrt(s)) - 1.0))
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with src/common/detmath_coeffs.h (exit 1 on a difference)")
    ap.add_argument("--header", default="src/common/detmath_coeffs.h")
    args = ap.parse_args()

    lines = []
    for name, fn, interval, degree in FITS:
        coeffs, err = fit(fn, interval, degree)
        lines.append(f"/* P_{name.lower()}: degree {degree} on [0, {mpmath.nstr(interval[1], 17)}], "
                     f"|P - f| <= {mpmath.nstr(err, 3)} (chebyfit's estimate) */")
        for k in range(degree, -1, -1):
            lines.append(f"#define TENDON_{name}_C{k} {coeffs[k].hex()}")
        lines.append("")
    pi_hi = float(mp.pi)
    pi_lo = float(mp.pi - mpf(pi_hi))
    lines.append(f"#define TENDON_PIO2 {float(mp.pi / 2).hex()}")
    lines.append(f"#define TENDON_PI_HI {pi_hi.hex()}")
    lines.append(f"#define TENDON_PI_LO {pi_lo.hex()}")
    print("\n".join(lines))
    print(f"\n/* rsqrt seed: max |y0*sqrt(s) - 1| over [1, 4) = {rsqrt_seed_error():.4g} */")
    sys.stdout.flush()

    if args.check:
        try:
            text = open(args.header, encoding="utf-8").read()
        except OSError as e:
            sys.exit(f"--check: cannot read {args.header}: {e}")
        want = dict(re.findall(r"#define (TENDON_\w+) (\S+)", "\n".join(lines)))
        have = dict(re.findall(r"#define (TENDON_\w+) (\S+)", text))
        bad = [k for k in want if k not in have or float.fromhex(have[k]) != float.fromhex(want[k])]
        for k in bad:
            print(f"MISMATCH {k}: header {have.get(k)}, fit {want[k]}", file=sys.stderr)
        print(f"--check: {len(want) - len(bad)}/{len(want)} constants match {args.header}",
              file=sys.stderr)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
