"""Error text safe to record: anything shaped like an API key or token is redacted (servers and
SDKs may echo credentials in their messages)."""

from __future__ import annotations

import re

# Credential shapes seen in SDK error texts: provider key prefixes, bearer tokens, `key=...`
# query or header echoes, and long opaque tokens. A hand-written pattern list: the messages are
# short one-liners and no maintained library redacts free text without a model or a network call.
_SECRET = re.compile(
    r"(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-*]{8,}"
    r"|hf_[A-Za-z0-9]{20,}"
    r"|AIza[0-9A-Za-z_\-]{30,}"
    r"|(?<=Bearer )[A-Za-z0-9._\-]{8,}"
    r"|(?<=[?&]key=)[^&\s]+"
    r"|(?i:(?<=api[_-]key[=:] )|(?<=api[_-]key[=:]))[^\s,;)]+"
    r"|\b(?=[A-Za-z0-9_\-]*\d)(?=[A-Za-z0-9_\-]*[A-Za-z])[A-Za-z0-9_\-]{40,}\b)")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """`text` with every substring shaped like an API key or token replaced by [redacted]."""
    return _SECRET.sub(REDACTED, text)


def error_text(exc: BaseException) -> str:
    """`Type: message`, redacted."""
    return redact(f"{type(exc).__name__}: {exc}".strip())
