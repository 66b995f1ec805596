"""The one error type for bad input and refused policies."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ndcg_desktop.domain.settings import GradeScale


@dataclass(frozen=True)
class Advice:
    """What to do about a refusal, worded for each front: the command line names its options, Python its
    keywords (the window names neither: its own controls make the choice, and it shows ``located()``).

    >>> advice = choose("unjudged", "zero", "condense")
    >>> advice.command_line, advice.python
    ('choose --unjudged zero|condense', 'choose unjudged="zero" or unjudged="condense"')
    """

    command_line: str
    python: str


def choose(name: str, *values: str, what: str = "") -> Advice:
    """Advice to make the choice ``name`` (as the table of choices names it: ``unknown_queries``) one of ``values``.

    ``what`` names the choice in words when the option alone would not (``the pool's scale``).

    >>> choose("scale", "LO..HI", what="the pool's scale").command_line
    "choose the pool's scale with --scale LO..HI"
    """
    lead = f"choose {what} with " if what else "choose "
    flag = "--" + name.replace("_", "-")
    return Advice(lead + f"{flag} {'|'.join(values)}", lead + " or ".join(f'{name}="{value}"' for value in values))


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
        hint: str | Advice | None = None,
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

    def worded(self, front: str) -> str:
        """The message as the front ``front`` shows it: ``"command_line"`` (``str(error)``), ``"python"`` (the
        hint in keywords: ``unjudged="zero"``) or ``"window"`` (:meth:`located`, no hint).

        >>> error = InputError("unjudged document", path="r.run", line=5, hint=choose("unjudged", "zero"))
        >>> error.worded("python")
        'r.run:5: unjudged document; choose unjudged="zero"'
        """
        text = self.located()
        if front == "window" or not self.hint:
            return text
        if isinstance(self.hint, Advice):
            return text + "; " + (self.hint.python if front == "python" else self.hint.command_line)
        return text + "; " + self.hint  # a command to run on the project (the Python API only reads one)

    def __str__(self) -> str:
        return self.worded("command_line")


class GradeOutsideScale(InputError):
    """A judgment's grade outside the scale the judgments are read on. The reader says where; the command line
    rewords the remedy when the scale was the one its ``--scale`` gave (cli.options.given_scale_named)."""

    def __init__(self, grade: int, scale: GradeScale, *, path: str | Path, line: int, hint: str | Advice) -> None:
        self.grade, self.scale = grade, scale
        super().__init__(f"grade {grade} is outside the scale {scale}", path=path, line=line, hint=hint)


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
