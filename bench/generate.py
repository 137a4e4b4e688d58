#!/usr/bin/env python3
"""Realistic benchmark mailboxes, deterministic for a seed.

Usage:
    generate.py --count N [--seed S] [--maildir DIR] [--mbox FILE] [--order-share 0.10]
    generate.py --mbox-bytes MB --mbox FILE [--seed S]      # stream until FILE reaches MB

About 10% of the messages are order and shipping emails varied from the cases in Corpus/
(new Message-ID, Date and order numbers; tracking numbers get new digits where their check
digit can be recomputed with Corpus/tools/checkdigits.py, and stay as they are otherwise).
The rest is ordinary mail: HTML newsletters of 50-150 KB, plain personal mail, short
notifications, and about 1% messages with an attachment of 1-3 MB.

Everything is written message by message, so memory stays small for any size. Python 3
standard library only.
"""

import argparse
import base64
import email.utils
import json
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "Corpus")
sys.path.insert(0, os.path.join(CORPUS, "tools"))
try:
    import checkdigits  # noqa: E402
except ImportError:  # the corpus tools are optional for generating
    checkdigits = None

WORDS = (
    "the of and to in a is that for it as was with be by on not he this are or his from at which "
    "but have an they you were her she there been one all we their has would when if more no out "
    "do so can what up said about other into than its time only could new them man some these then "
    "two first may any like now my such make over our even most me state after also made many did "
    "must before back see through way where get much go well your know should down work year because "
    "come people just say each those take day good how long very little world great still own last "
    "garden recipe autumn weekend story photo travel music season coffee city river mountain team "
    "project meeting library article review community update design family morning evening").split()

WORDS_DE = ("und der die das ist wir ein eine nicht mit auf für sich dem den von zu im auch "
            "es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über "
            "garten herbst rezept wochenende reise musik kaffee stadt fluss berg familie").split()

WORDS_FR = ("le la les de des et un une est en que qui dans pour pas sur au avec il elle nous "
            "vous ce cette jardin automne recette week-end voyage musique café ville famille").split()

FIRST = ["Anna", "Ben", "Chloé", "David", "Emma", "Felix", "Greta", "Hugo", "Ines", "Jonas",
         "Kim", "Lena", "Marco", "Nora", "Oskar", "Paula", "Quentin", "Rosa", "Sam", "Tara"]
LAST = ["Beispiel", "Example", "Muster", "Sample", "Demo", "Probe", "Test", "Placeholder"]
NEWS_BRANDS = ["gardenweekly", "citylights", "thereadingroom", "trailnotes", "kitchenstories",
               "techdigest", "musikbrief", "lejournaldujardin", "fotoclub", "runnersworld"]
NEWS_SUBJECTS = ["Your weekly digest", "10 ideas for a slow autumn weekend", "What we read this month",
                 "Neuigkeiten aus dem Garten", "La lettre du dimanche", "New stories from the trail",
                 "Photo of the week and more", "Our spring programme is here", "Behind the scenes",
                 "Five recipes for rainy evenings"]
NOTIFY = [
    ("notifications@code.example", "[repo/project] New comment on issue #{n}",
     "Someone commented on issue #{n}:\n\n> {text}\n\nReply to this email directly or view it online."),
    ("calendar@mail.example", "Invitation: Team meeting @ {day}",
     "You have been invited to Team meeting on {day}.\nJoin: https://meet.example/{n}\n\n{text}"),
    ("alerts@bank.example", "Your statement is ready",
     "Your monthly statement is ready in online banking. Reference {n}.\n\n{text}"),
    ("no-reply@social.example", "{name} mentioned you in a post",
     "{name} mentioned you: \"{text}\"\n\nSee the post: https://social.example/p/{n}"),
    ("security@account.example", "New sign-in to your account",
     "We noticed a new sign-in from Firefox on Linux at {day}.\nIf this was you, no action is needed.\n\n{text}"),
]


def words(rng, n, pool=WORDS):
    return " ".join(rng.choice(pool) for _ in range(n))


def rfc2822(rng):
    # 2025-01-01 .. 2026-11-30
    stamp = 1735689600 + rng.randrange(0, 63_000_000)
    return email.utils.formatdate(stamp, localtime=False), stamp


def crlf(text):
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


class Blocks:
    """Pools of pre-built text so that large newsletters are cheap to make."""

    def __init__(self, rng):
        self.paragraphs = [words(rng, rng.randrange(40, 120)) for _ in range(400)]
        self.paragraphs_de = [words(rng, rng.randrange(40, 120), WORDS_DE) for _ in range(100)]
        self.paragraphs_fr = [words(rng, rng.randrange(40, 120), WORDS_FR) for _ in range(100)]
        blob = bytes(rng.getrandbits(8) for _ in range(1 << 16))
        # 3 MB of base64 built from a random 64 KB block rotated; wrapped at 76 columns.
        raw = b"".join(blob[i:] + blob[:i] for i in range(0, 48 * 1024, 1024))
        self.base64 = base64.encodebytes(raw).decode("ascii").replace("\n", "\r\n")


def newsletter(rng, blocks, n):
    brand = rng.choice(NEWS_BRANDS)
    lang = rng.random()
    pool = blocks.paragraphs if lang < 0.7 else (blocks.paragraphs_de if lang < 0.85 else blocks.paragraphs_fr)
    target = rng.randrange(50_000, 150_000)
    parts = []
    size = 0
    article = 0
    while size < target:
        article += 1
        para = rng.choice(pool)
        title = " ".join(para.split()[:6]).capitalize()
        cell = (
            f'<tr><td class="article" style="padding:24px 32px;font-family:Georgia,serif;font-size:16px;'
            f'line-height:1.5;color:#333333;background-color:#ffffff;">\n'
            f'<img src="https://img.{brand}.example/{n}/{article}.jpg" width="536" height="300" alt="" '
            f'style="display:block;border:0;width:100%;height:auto;">\n'
            f'<h2 style="font-size:22px;margin:16px 0 8px 0;color:#111111;">{title}</h2>\n'
            f'<p style="margin:0 0 12px 0;">{para}</p>\n'
            f'<p style="margin:0 0 12px 0;">{rng.choice(pool)}</p>\n'
            f'<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>'
            f'<td style="border-radius:4px;background:#2a6f4e;padding:10px 18px;">'
            f'<a href="https://click.{brand}.example/ls/click?upn={n:08x}{article:04x}{rng.getrandbits(64):016x}" '
            f'style="color:#ffffff;text-decoration:none;font-weight:bold;">Read more</a></td></tr></table>\n'
            f"</td></tr>\n")
        if rng.random() < 0.08:
            cell += ('<tr><td style="padding:8px 32px;font-size:13px;color:#666666;">'
                     "Free shipping on everything in our shop this weekend.</td></tr>\n")
        parts.append(cell)
        size += len(cell)
    html = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width">\n'
        "<style>body{margin:0;padding:0}table{border-collapse:collapse}.article p{margin:0}"
        "@media (max-width:600px){.article{padding:12px!important}}</style>\n"
        "<!--[if mso]><style>table{border-collapse:collapse}</style><![endif]-->\n"
        '</head><body style="margin:0;background:#eeeeee;">\n'
        f'<div style="display:none;max-height:0;overflow:hidden;">{rng.choice(pool)[:120]}</div>\n'
        '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">'
        '<tr><td align="center"><table role="presentation" width="600" cellpadding="0" cellspacing="0">\n'
        + "".join(parts)
        + f'<tr><td style="padding:24px;font-size:12px;color:#888888;">You receive this because you '
        f'subscribed at {brand}.example. <a href="https://{brand}.example/unsubscribe?u={n}">Unsubscribe</a>'
        "</td></tr>\n</table></td></tr></table></body></html>\n")
    plain = f"{NEWS_SUBJECTS[n % len(NEWS_SUBJECTS)]}\n\n{rng.choice(pool)}\n\nRead online: https://{brand}.example/web/{n}\n"
    boundary = f"=_news_{n:x}_{rng.getrandbits(32):08x}"
    return (
        f"From: {brand.capitalize()} <news@{brand}.example>",
        rng.choice(NEWS_SUBJECTS),
        f'Content-Type: multipart/alternative; boundary="{boundary}"\nList-Unsubscribe: '
        f"<https://{brand}.example/unsubscribe?u={n}>",
        f"--{boundary}\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n{plain}\n"
        f"--{boundary}\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n{html}\n"
        f"--{boundary}--\n",
        f"{brand}.example")


def person(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return f"{first} {last}", f"{first.lower()}.{last.lower()}@mail.example".replace("é", "e")


def personal(rng, blocks, n):
    name, address = person(rng)
    lang = rng.random()
    pool = blocks.paragraphs if lang < 0.6 else (blocks.paragraphs_de if lang < 0.8 else blocks.paragraphs_fr)
    body = "\n\n".join(rng.choice(pool) for _ in range(rng.randrange(1, 8)))
    if rng.random() < 0.4:
        quoted = "\n".join("> " + line for line in rng.choice(pool).split(". "))
        body += f"\n\nOn {rfc2822(rng)[0]}, someone wrote:\n{quoted}\n"
    subject = ("Re: " if rng.random() < 0.4 else "") + " ".join(rng.choice(pool).split()[:5]).capitalize()
    return (f"From: {name} <{address}>", subject, "Content-Type: text/plain; charset=utf-8\n"
            "Content-Transfer-Encoding: 8bit", body + "\n\n-- \n" + name + "\n", "mail.example")


def notification(rng, blocks, n):
    sender, subject, text = rng.choice(NOTIFY)
    name, _ = person(rng)
    day = rfc2822(rng)[0]
    fill = dict(n=rng.randrange(1000, 99999), text=rng.choice(blocks.paragraphs)[:300], day=day, name=name)
    plain = text.format(**fill)
    html = ('<html><body style="font-family:sans-serif"><table width="100%"><tr><td>'
            + "".join(f"<p>{line}</p>" for line in plain.split("\n") if line)
            + '<p style="color:#999;font-size:11px">' + rng.choice(blocks.paragraphs) + "</p>"
            + "</td></tr></table></body></html>")
    boundary = f"=_note_{n:x}"
    return (f"From: <{sender}>", subject.format(**fill),
            f'Content-Type: multipart/alternative; boundary="{boundary}"',
            f"--{boundary}\nContent-Type: text/plain; charset=utf-8\n\n{plain}\n"
            f"--{boundary}\nContent-Type: text/html; charset=utf-8\n\n{html}\n--{boundary}--\n",
            sender.split("@")[1])


def with_attachment(rng, blocks, n):
    name, address = person(rng)
    size = rng.randrange(1 << 20, 3 << 20)
    start = rng.randrange(0, 64) * 78
    data = blocks.base64[start:start + size * 4 // 3]
    data = data[: len(data) - len(data) % 78]  # whole lines
    kind = rng.choice([("application/pdf", "pdf"), ("image/jpeg", "jpg"), ("application/zip", "zip")])
    boundary = f"=_att_{n:x}"
    body = (f"--{boundary}\nContent-Type: text/plain; charset=utf-8\n\n"
            f"Hi,\n\nhere are the files from last week.\n\n{rng.choice(blocks.paragraphs)}\n\n{name}\n"
            f"--{boundary}\nContent-Type: {kind[0]}; name=\"file{n}.{kind[1]}\"\n"
            f"Content-Disposition: attachment; filename=\"file{n}.{kind[1]}\"\n"
            f"Content-Transfer-Encoding: base64\n\n")
    return (f"From: {name} <{address}>", "Files from last week",
            f'Content-Type: multipart/mixed; boundary="{boundary}"',
            (body, data, f"\n--{boundary}--\n"), "mail.example")


# ---------------------------------------------------------------------------------------------
# Order and shipping emails from Corpus/.

TRACKING_RULES = [  # (regex over the whole number, algorithm, how to split body/check)
    (re.compile(r"^1Z[0-9A-Z]{16}$"), "ups"),
    (re.compile(r"^00[0-9]{18}$"), "gs1"),
    (re.compile(r"^9[0-9]{19,21}$"), "gs1"),
    (re.compile(r"^[0-9]{12}$"), "fedex12"),
]


def load_cases():
    cases = []
    for dirpath, dirnames, filenames in os.walk(CORPUS):
        dirnames[:] = sorted(d for d in dirnames if d != "tools")
        numbers, tracking = set(), set()
        thread = os.path.join(dirpath, "expected-orders.json")
        if os.path.exists(thread):
            collect(json.load(open(thread, encoding="utf-8")), numbers, tracking)
        for name in sorted(filenames):
            if not name.endswith(".eml"):
                continue
            own_numbers, own_tracking = set(numbers), set(tracking)
            expected = os.path.join(dirpath, name[:-4] + ".expected.json")
            if os.path.exists(expected):
                collect(json.load(open(expected, encoding="utf-8")), own_numbers, own_tracking)
            with open(os.path.join(dirpath, name), "rb") as f:
                raw = f.read()
            cases.append((raw, sorted(own_numbers, key=len, reverse=True),
                          sorted(own_tracking, key=len, reverse=True)))
    return cases


def collect(node, numbers, tracking):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "orderNumber" and isinstance(value, str) and len(value) >= 4:
                numbers.add(value)
            elif key == "trackingNumber" and isinstance(value, str):
                tracking.add(value)
            else:
                collect(value, numbers, tracking)
    elif isinstance(node, list):
        for value in node:
            collect(value, numbers, tracking)


def vary_number(rng, number):
    return "".join(rng.choice("0123456789") if ch.isdigit() else ch for ch in number)


def vary_tracking(rng, number):
    if checkdigits is None:
        return number
    for pattern, algorithm in TRACKING_RULES:
        if not pattern.match(number):
            continue
        try:
            body = number[:-1]
            fresh = body[:2] + vary_number(rng, body[2:]) if algorithm in ("ups", "gs1") else vary_number(rng, body)
            if algorithm == "ups":
                check = checkdigits.ups_check(fresh)
            elif algorithm == "gs1":
                check = checkdigits.gs1_check(fresh)
            else:
                check = checkdigits.fedex12_check(fresh)
            return fresh + check
        except Exception:  # an unexpected shape: keep the number as it is
            return number
    return number


HEADER_END = re.compile(rb"\r?\n\r?\n")


def order_email(rng, cases, n, stamp_date):
    raw, numbers, tracking = rng.choice(cases)
    for number in numbers:
        raw = raw.replace(number.encode(), vary_number(rng, number).encode())
    for number in tracking:
        raw = raw.replace(number.encode(), vary_tracking(rng, number).encode())
    end = HEADER_END.search(raw)
    split = end.start() if end else len(raw)
    head, rest = raw[:split], raw[split:]

    def new_id(match):
        domain = match.group(2) or b"bench.example"
        return match.group(1) + b"<bench." + str(n).encode() + b"." + format(rng.getrandbits(40), "x").encode() \
            + b"@" + domain + b">"

    head = re.sub(rb"(?im)^(Message-ID:[ \t]*)<[^@>]*@?([^>]*)>", new_id, head, count=1)
    head = re.sub(rb"(?im)^(Date:[ \t]*)[^\r\n]*(\r?\n[ \t][^\r\n]*)*", lambda m: m.group(1) + stamp_date.encode(),
                  head, count=1)
    return head + rest


# ---------------------------------------------------------------------------------------------

def build(rng, blocks, n):
    """Returns the message's bytes (CRLF) as a list of chunks, and its sender for mbox."""
    roll = rng.random()
    date, stamp = rfc2822(rng)
    if roll < ORDER_SHARE:
        raw = order_email(rng, CASES, n, date)
        match = re.search(rb"(?im)^From:[^\r\n]*<([^>\r\n]+)>", raw)
        return [raw], (match.group(1).decode("latin-1") if match else "MAILER-DAEMON"), stamp
    rest = (roll - ORDER_SHARE) / (1 - ORDER_SHARE)
    if rest < 0.30:
        made = newsletter(rng, blocks, n)
    elif rest < 0.64:
        made = personal(rng, blocks, n)
    elif rest < 0.99:
        made = notification(rng, blocks, n)
    else:
        made = with_attachment(rng, blocks, n)
    sender, subject, content_headers, body, domain = made
    address = re.search(r"<([^>]+)>", sender).group(1)
    head = (f"Return-Path: <{address}>\nReceived: from mx.{domain} (mx.{domain} [192.0.2.{n % 250 + 1}])\n"
            f"\tby mx.mail.example with ESMTPS; {date}\n{sender}\nTo: Jordan Lee <jordan.lee@mail.example>\n"
            f"Subject: {subject}\nDate: {date}\nMessage-ID: <{n}.{rng.getrandbits(48):x}@{domain}>\n"
            f"MIME-Version: 1.0\n{content_headers}\n\n")
    chunks = [crlf(head).encode()]
    if isinstance(body, tuple):
        chunks += [crlf(body[0]).encode(), body[1].encode(), crlf(body[2]).encode()]
    else:
        chunks.append(crlf(body).encode())
    return chunks, address, stamp


def mbox_chunks(chunks, sender, stamp):
    """mboxrd: LF line ends, "From " lines in the body quoted with '>'."""
    data = b"".join(chunks).replace(b"\r\n", b"\n")
    data = re.sub(rb"(?m)^(>*From )", rb">\1", data)
    if not data.endswith(b"\n"):
        data += b"\n"
    line = f"From {sender} {time.strftime('%a %b %d %H:%M:%S %Y', time.gmtime(stamp))}\n".encode()
    return line + data + b"\n"


def main():
    global ORDER_SHARE, CASES
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--mbox-bytes", type=int, default=0, help="stop the mbox at this many MB")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--maildir")
    parser.add_argument("--mbox")
    parser.add_argument("--order-share", type=float, default=0.10)
    args = parser.parse_args()
    if not args.maildir and not args.mbox:
        parser.error("give --maildir DIR and/or --mbox FILE")
    if not args.count and not args.mbox_bytes:
        parser.error("give --count N or --mbox-bytes MB")
    ORDER_SHARE = args.order_share
    CASES = load_cases()
    rng = random.Random(args.seed)
    blocks = Blocks(random.Random(args.seed ^ 0x5EED))
    if args.maildir:
        for sub in ("cur", "new", "tmp"):
            os.makedirs(os.path.join(args.maildir, sub), exist_ok=True)
    mbox = open(args.mbox, "wb") if args.mbox else None
    limit = args.mbox_bytes << 20
    written = 0
    n = 0
    while (args.count and n < args.count) or (not args.count and written < limit):
        chunks, sender, stamp = build(rng, blocks, n)
        if args.maildir:
            name = f"{stamp}.M{n}P{args.seed}.bench:2,S"
            with open(os.path.join(args.maildir, "cur", name), "wb") as f:
                for chunk in chunks:
                    f.write(chunk)
        if mbox:
            data = mbox_chunks(chunks, sender, stamp)
            mbox.write(data)
            written += len(data)
        n += 1
    if mbox:
        mbox.close()
    print(f"generated {n} messages" + (f", mbox {written >> 20} MB" if mbox else ""), file=sys.stderr)


ORDER_SHARE = 0.10
CASES = []

if __name__ == "__main__":
    main()
