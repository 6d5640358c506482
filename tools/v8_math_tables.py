#!/usr/bin/env python3
"""The tables of src/common/detmath_v8_coeffs.h that are digits of pi, recomputed with mpmath.

  python3 tools/v8_math_tables.py           print them
  python3 tools/v8_math_tables.py --check   compare them with the header (exit 1 on a difference)

2/pi in 66 digits of 24 bits; pi/2 in eight pieces of 24 bits; the high words of n*pi/2 rounded
to double for n = 1..32. (The polynomial coefficients of that header are fdlibm's published
constants, not fits: nothing here recomputes them.) Provenance only: neither the build nor CI
runs this. Needs mpmath (checked with 1.3.0).
"""
import re
import struct
import sys

import mpmath

mpmath.mp.prec = 3000


def two_over_pi():
    f, out = 2 / mpmath.pi, []
    for _ in range(66):
        f *= 2**24
        c = int(mpmath.floor(f))
        out.append(c)
        f -= c
    return out


def pio2_pieces():
    rem, out = mpmath.pi / 2, []
    for i in range(8):
        unit = mpmath.mpf(2) ** (-24 * i)
        piece = mpmath.floor(rem / unit * 2**23) / 2**23 * unit
        out.append(float(piece))
        rem -= piece
    return out


def npio2_hw():
    return [struct.unpack(">II", struct.pack(">d", float(n * mpmath.pi / 2)))[0] for n in range(1, 33)]


def main():
    tables = {"two_over_pi": two_over_pi(), "pio2_pieces": pio2_pieces(), "npio2_hw": npio2_hw()}
    if "--check" not in sys.argv:
        for name, values in tables.items():
            print(name, ", ".join(v.hex() if isinstance(v, float) else "0x%X" % v for v in values))
        return 0
    header = open(__file__.rsplit("/tools/", 1)[0] + "/src/common/detmath_v8_coeffs.h").read()
    bad = 0
    for name, values in tables.items():
        body = re.search(r"tendon_v8_%s\[\d+\] = \{(.*?)\};" % name, header, re.S).group(1)
        items = [t for t in re.split(r"[,\s]+", body) if t]
        got = [float.fromhex(t) if name == "pio2_pieces" else int(t, 16) for t in items]
        ok = got == values
        bad += not ok
        print("%s: %d values %s" % (name, len(values), "match" if ok else "DIFFER"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
