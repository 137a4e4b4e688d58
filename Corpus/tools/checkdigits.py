#!/usr/bin/env python3
"""Check digits for the tracking numbers used in the corpus.

Usage:
    checkdigits.py complete ALGORITHM BODY   # prints BODY with its check digit in place
    checkdigits.py verify ALGORITHM NUMBER   # prints "valid" or "invalid"; exit 1 when invalid
    checkdigits.py selftest

Algorithms (each documented at its function): ups, usps (also IMpb 22/26/30 digits with
a 420+ZIP prefix: pass only the 22-digit item number), gs1 (SSCC, 20-digit USPS,
DHL Paket 00340434…), fedex12, mod7 (DHL Express 10 digits, Yamato, Sagawa, Japan Post
12 digits, CJ대한통운, 롯데택배, 로젠택배), s10 (UPU S10: Royal Mail, La Poste, China Post,
Japan Post international, CTT, Correios, Poste Italiane, …), dpd (ISO 7064 MOD 37,36),
ontrac (OnTrac C/D + 14 digits), luhn (Purolator 12-digit PINs).

Python 3 standard library only. Written for this project from the public descriptions of
each rule; the corpus README lists which number uses which rule.
"""

import sys


def _digit_value_ups(ch):
    # UPS 1Z numbers: digits are themselves; a letter counts as (ASCII code - 3) mod 10.
    if ch.isdigit():
        return int(ch)
    return (ord(ch) - 3) % 10


def ups_check(body):
    """UPS 1Z: over the 15 characters after "1Z", odd positions (1st, 3rd, …) x1,
    even positions x2, check = (10 - sum mod 10) mod 10. body = "1Z" + 15 characters."""
    assert body.startswith("1Z") and len(body) == 17, body
    total = 0
    for i, ch in enumerate(body[2:]):
        value = _digit_value_ups(ch)
        total += value * (2 if i % 2 == 1 else 1)
    return str((10 - total % 10) % 10)


def ontrac_check(body):
    """OnTrac C…/D…: the UPS weighting over all 14 body characters, the leading letter
    included (letters as (ASCII code - 3) mod 10), 1st x1, 2nd x2, …;
    check = (10 - sum mod 10) mod 10. body = letter + 13 digits."""
    assert len(body) == 14 and body[0].isalpha(), body
    total = 0
    for i, ch in enumerate(body):
        total += _digit_value_ups(ch) * (2 if i % 2 == 1 else 1)
    return str((10 - total % 10) % 10)


def luhn_check(body):
    """Luhn (ISO/IEC 7812-1 annex B), used for Purolator 12-digit PINs: from the
    rightmost body digit, every other digit doubled (minus 9 when above 9);
    check = (10 - sum mod 10) mod 10."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        value = int(ch)
        if i % 2 == 0:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return str((10 - total % 10) % 10)


def gs1_check(body):
    """GS1 mod 10 (SSCC, GTIN, USPS 20/22-digit IMpb item numbers): from the rightmost
    digit of the body leftwards weights 3,1,3,1…; check = (10 - sum mod 10) mod 10."""
    assert body.isdigit(), body
    total = 0
    for i, ch in enumerate(reversed(body)):
        total += int(ch) * (3 if i % 2 == 0 else 1)
    return str((10 - total % 10) % 10)


def usps_check(body):
    """USPS IMpb (Publication 199): the GS1 mod 10 rule over the item number's digits
    (without any 420+ZIP routing prefix)."""
    return gs1_check(body)


def fedex12_check(body):
    """FedEx Express 12 digits: weights 1,3,7 repeating from the rightmost body digit
    leftwards; check = (sum mod 11) mod 10."""
    assert body.isdigit() and len(body) == 11, body
    weights = [1, 3, 7]
    total = sum(int(ch) * weights[i % 3] for i, ch in enumerate(reversed(body)))
    return str(total % 11 % 10)


def mod7_check(body):
    """Mod 7: the body read as one integer, check = body mod 7 (DHL Express 10 digits,
    Yamato/Sagawa/Japan Post 12 digits, CJ대한통운/롯데택배 12 digits, 로젠택배 11 digits)."""
    assert body.isdigit(), body
    return str(int(body) % 7)


def s10_check(serial8):
    """UPU S10 (UPU standard S10): 8 serial digits weighted 8,6,4,2,3,5,9,7;
    check = 11 - (sum mod 11), with 10 -> 0 and 11 -> 5."""
    assert serial8.isdigit() and len(serial8) == 8, serial8
    weights = [8, 6, 4, 2, 3, 5, 9, 7]
    check = 11 - sum(int(d) * w for d, w in zip(serial8, weights)) % 11
    if check == 10:
        check = 0
    elif check == 11:
        check = 5
    return str(check)


_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def dpd_check(body):
    """ISO 7064 hybrid MOD 37,36 (DPD parcel numbers: 14 digits + check character).
    P starts at 36; for each character S = (P + value) mod 36 (0 -> 36), P = 2S mod 37;
    the check character's value is (37 - P) mod 36."""
    p = 36
    for ch in body.upper():
        s = (p + _ALNUM.index(ch)) % 36
        if s == 0:
            s = 36
        p = (s * 2) % 37
    return _ALNUM[(37 - p) % 36]


def complete(algorithm, body):
    body = body.replace(" ", "").upper()
    if algorithm == "ups":
        return body + ups_check(body)
    if algorithm in ("gs1", "usps"):
        return body + gs1_check(body)
    if algorithm == "fedex12":
        return body + fedex12_check(body)
    if algorithm == "mod7":
        return body + mod7_check(body)
    if algorithm == "dpd":
        return body + dpd_check(body)
    if algorithm == "ontrac":
        return body + ontrac_check(body)
    if algorithm == "luhn":
        return body + luhn_check(body)
    if algorithm == "s10":
        # body: 2 letters + 8 digits + 2-letter country, e.g. RR12345678GB
        assert len(body) == 12, body
        return body[:10] + s10_check(body[2:10]) + body[10:]
    raise SystemExit("unknown algorithm: " + algorithm)


def verify(algorithm, number):
    number = number.replace(" ", "").upper()
    if algorithm == "s10":
        return complete("s10", number[:10] + number[11:]) == number
    return complete(algorithm, number[:-1]) == number


def selftest():
    # Published sample numbers (UPS, Royal Mail S10, DHL Express, FedEx) and near misses.
    assert verify("ups", "1Z999AA10123456784")
    assert not verify("ups", "1Z999AA10123456785")
    assert verify("s10", "RR473124829GB")
    assert not verify("s10", "RR473124828GB")
    assert verify("mod7", "3318810025")
    assert verify("fedex12", "986578788855")
    assert verify("ontrac", "C11031500001879")
    assert verify("ontrac", "D10011354453707")
    assert not verify("ontrac", "D10011345983012")
    assert verify("luhn", "79927398713")
    assert not verify("luhn", "79927398710")
    assert verify("usps", complete("usps", "940011189922319742849"))
    assert not verify("usps", "9400111899223197428490")
    print("selftest passed")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["selftest"]:
        selftest()
    elif len(args) == 3 and args[0] == "complete":
        print(complete(args[1], args[2]))
    elif len(args) == 3 and args[0] == "verify":
        ok = verify(args[1], args[2])
        print("valid" if ok else "invalid")
        sys.exit(0 if ok else 1)
    else:
        print(__doc__)
        sys.exit(2)
