#!/usr/bin/env python3
"""Second opinion for the MIME differential test.

Reads message file paths (one per line) on standard input and prints, for each, one
JSON object: the subject, From and To mailboxes, and the decoded text of every text part
in depth-first order (descending into message/rfc822), as Python's standard `email`
package (policy.default) sees them. Python does not implement format=flowed (RFC 3676),
so this helper unwraps flowed text itself; everything else is Python's own decoding.
"""
import email
import json
import sys
from email import policy


def unwrap_flowed(text, delsp):
    out = []
    current = None
    current_depth = -1
    lines = text.split("\n")
    for index, raw in enumerate(lines):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]
        signature = line == "-- "
        flowed = not signature and line.endswith(" ") and index < len(lines) - 1
        if current is not None and depth != current_depth:
            out.append(prefix(current_depth) + current)
            current = None
        if flowed and delsp:
            line = line[:-1]
        current = (current or "") + line
        current_depth = depth
        if not flowed:
            out.append(prefix(depth) + current)
            current = None
    if current is not None:
        out.append(prefix(current_depth) + current)
    return "\n".join(out)


def prefix(depth):
    return ">" * depth + " " if depth > 0 else ""


def addresses(msg, name):
    try:
        header = msg[name]
        if header is None:
            return []
        return [[a.display_name or "", a.addr_spec or ""] for a in header.addresses]
    except Exception as error:  # noqa: BLE001 - any failure is reported, not fatal
        return {"error": repr(error)}


def walk(part):
    """Like Message.walk, but message/delivery-status (RFC 3464) stays one non-text part:
    Python splits it into header blocks that it presents as text/plain parts."""
    yield part
    if part.get_content_type() == "message/delivery-status":
        return
    if part.is_multipart():
        for child in part.get_payload():
            yield from walk(child)


def describe(path):
    with open(path, "rb") as handle:
        data = handle.read()
    result = {"path": path}
    try:
        msg = email.message_from_bytes(data, policy=policy.default)
    except Exception as error:  # noqa: BLE001
        result["error"] = repr(error)
        return result
    try:
        subject = msg["subject"]
        result["subject"] = None if subject is None else str(subject)
    except Exception as error:  # noqa: BLE001
        result["subject"] = {"error": repr(error)}
    result["from"] = addresses(msg, "from")
    result["to"] = addresses(msg, "to")
    texts = []
    for part in walk(msg):
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        try:
            text = part.get_content()
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            if part.get_content_subtype() == "plain" and part.get_param("format", "").lower() == "flowed":
                text = unwrap_flowed(text, part.get_param("delsp", "").lower() == "yes")
            texts.append(text)
        except Exception as error:  # noqa: BLE001
            texts.append({"error": repr(error)})
    result["texts"] = texts
    return result


def clean(value):
    """Lone surrogates (Python's stand-in for undecodable header bytes) become U+FFFD."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [clean(item) for item in value]
    if isinstance(value, dict):
        return {key: clean(item) for key, item in value.items()}
    return value


def main():
    for line in sys.stdin:
        path = line.rstrip("\n")
        if path:
            print(json.dumps(clean(describe(path))))


if __name__ == "__main__":
    main()
