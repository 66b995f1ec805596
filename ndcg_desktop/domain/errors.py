"""The one error type for bad input and refused policies."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """A problem with the user's input, located in a file and line where possible.

    ``str(error)`` is the one-line message the command line prints after ``error:``:

    >>> str(InputError("grade 7 is outside the scale 0..3", path="qrels.txt", line=12))
    'qrels.txt:12: grade 7 is outside the scale 0..3'
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | Path | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        self.hint = hint
        super().__init__(self.__str__())

    def located(self) -> str:
        """The message with its file and line, without the command line's hint.

        Hints name command-line options (``choose --unjudged zero|condense``); the window shows
        this instead, since its own controls make the choice.

        >>> InputError("unjudged document", path="r.run", line=5, hint="choose --unjudged zero").located()
        'r.run:5: unjudged document'
        """
        where = ""
        if self.path is not None:
            where = terminal_safe(self.path) + (f":{self.line}" if self.line is not None else "") + ": "
        return where + terminal_safe(self.message)

    def __str__(self) -> str:
        text = self.located()
        if self.hint:
            text += "; " + self.hint
        return text


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def terminal_safe(text: str) -> str:
    r"""``text`` with every character a terminal would not print as itself escaped (one line, no escape sequences).

    Control characters (ESC, line ends), format characters (zero-width, bidirectional) and separators
    other than the space become ``\n``, ``\x1b``, ``\u200b``; the message stays one line.

    >>> terminal_safe("e\x1b[31mvil\nfake\u200b.txt")
    'e\\x1b[31mvil\\nfake\\u200b.txt'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _NAMED.get(ch) or _code(ch) for ch in text)


def _code(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
