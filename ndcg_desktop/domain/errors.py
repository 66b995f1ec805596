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
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        return where + self.message

    def __str__(self) -> str:
        text = self.located()
        if self.hint:
            text += "; " + self.hint
        return text
