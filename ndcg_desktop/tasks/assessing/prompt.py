"""The prompt a machine assessor is given for one item: a template filled with the topic, the guidelines, the grade
labels and the document.

The built-in template (``template.txt`` beside this module) follows the published structure of LLM relevance
judging (Thomas et al., UMBRELA: topic title, description and narrative, the scale, the document) in this project's
own words; a user's file replaces it (``--template FILE``). Placeholders are ``${name}`` (``string.Template``), so
the braces of a JSON example need no escaping.
"""

from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.tasks.assessing.model import Template

PLACEHOLDERS = (
    "title",
    "description",
    "narrative",
    "guidelines",
    "labels",
    "low",
    "high",
    "doc_id",
    "doc_title",
    "document",
)
BUILT_IN = "built-in"
_BRACED_NAME = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
_MAX_TEMPLATE = 100_000  # characters


def load_template(path: str | Path | None = None) -> Template:
    """The built-in template (``path`` None) or the file at ``path``, checked: UTF-8, at most 100,000 characters,
    ``${document}`` present, no placeholder other than :data:`PLACEHOLDERS`. A problem names the file."""
    if path is None:
        text = resources.files(__package__).joinpath("template.txt").read_text(encoding="utf-8")
        return Template(text, BUILT_IN)
    where = Path(path)
    try:
        data = where.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the template ({exc.strerror or exc})", path=where) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"the template is not UTF-8 (byte {exc.start})", path=where, line=line) from None
    if len(text) > _MAX_TEMPLATE:
        raise InputError(f"the template holds more than {_MAX_TEMPLATE:,} characters", path=where)
    template = Template(text, str(where))
    check_template(template)
    return template


def check_template(template: Template) -> None:
    """Refuse a template with an unknown or malformed placeholder, or without the document."""
    text = template.text
    pattern = string.Template(text)
    where = None if template.source == BUILT_IN else template.source
    placeholders = {  # where each real ${name} opens its brace
        found.start() + 1 for found in pattern.pattern.finditer(text) if found.group("braced") is not None
    }
    bare = [  # {title} typed without its '$' (or after '$$'): shown as it is, so the prompt would lack the title
        found for found in _BRACED_NAME.finditer(text) if found.start() not in placeholders
    ]
    problems = sorted([*pattern.pattern.finditer(text), *bare], key=lambda found: found.start())
    for found in problems:  # in the order of the text, so the first problem is named
        line = text.count("\n", 0, found.start()) + 1
        if found.re is _BRACED_NAME:
            name = found.group(1)
            raise InputError(f"the template has {{{name}}} without its '$': write ${{{name}}}", path=where, line=line)
        if found.group("invalid") is not None:
            raise InputError(
                "the template has a '$' that is not a placeholder (write '$$' for a dollar sign)", path=where, line=line
            )
        name = found.group("named") or found.group("braced")
        if name is not None and name not in PLACEHOLDERS:
            known = ", ".join("${" + known_name + "}" for known_name in PLACEHOLDERS)
            raise InputError(
                f"the template names an unknown placeholder ${{{name}}}; known: {known}", path=where, line=line
            )
    names = set(pattern.get_identifiers())
    if "document" not in names:
        raise InputError("the template never shows the document (${document})", path=where)


def render(template: Template, fields: dict[str, str]) -> str:
    """The template filled with ``fields`` (every name of :data:`PLACEHOLDERS`)."""
    return string.Template(template.text).substitute(fields)


def labels_text(low: int, labels: list[str]) -> str:
    """The grade labels as the prompt lists them, one a line: ``2: highly relevant``."""
    return "\n".join(f"{low + i}: {label}" for i, label in enumerate(labels))
