"""Every refusal that suggests an `ndcg` command suggests one that works in the project's state (issue 27).

The refusals naming a command are collected from the source (the text of every ``raise`` and ``hint=``, and
``tasks/advice.py`` and ``tasks/refusals.py``, which word the next step for several of them); each is reached by a
trigger below in a fresh project (with and without a run), a project with a draft (items rated differently, items
ungraded), and one with only a frozen version. Every command a refusal names is then run, placeholders filled in,
on a copy of the project as the refusal left it: it must succeed.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import build_parser, main
from ndcg_desktop.store import Project

SOURCE = Path(__file__).resolve().parents[2] / "ndcg_desktop"
COMMANDS = sorted(next(a for a in build_parser()._actions if a.dest == "command").choices)  # type: ignore[union-attr]
NAMED = re.compile(r"\bndcg (" + "|".join(map(re.escape, COMMANDS)) + r")\b")

ADVICE_MODULES = ("tasks/advice.py", "tasks/refusals.py")  # their texts are all advice: every string counts
# Where a refusal names a command, and which: a new one fails this table until a trigger below reaches it.
SITES = {
    "tasks/advice.py": {"adjudicate", "assign", "freeze", "import-qrels", "new-draft", "pool"},
    "tasks/refusals.py": {"status"},
    "tasks/freezing.py": {"adjudicate", "agreement", "freeze"},
    "tasks/importing.py": {"import-qrels"},
    "tasks/assessing/job.py": {"import-docs", "import-queries"},
    "tasks/work_files.py": {"assign"},
}

ANA = "q1 0 A 3\nq1 0 B 0\nq1 0 C 2\nq2 0 A 1\n"
BEN = "q1 0 A 3\nq1 0 B 1\nq2 0 A 1\nq2 0 D -1\n"  # B rated differently; D joins ungraded
RUN = "q1 Q0 A 1 3 sys\nq1 Q0 B 2 2 sys\nq2 Q0 A 1 3 sys\n"

# Each trigger is a list of steps (argv templates); every step's refusal is followed.
TRIGGERS = {
    "assign": [["assign", "{p}", "--annotators", "ana,ben", "-o", "{dir}"]],
    "merge a project that is no work file": [["merge", "{p}", "{other}"]],
    "new-draft": [["new-draft", "{p}"]],
    "export-qrels": [["export-qrels", "{p}", "-o", "{out}"]],
    "score": [["score", "--project", "{p}", "--run-name", "sys", "--unjudged", "zero"]],
    "freeze, adjudicate, freeze": [["freeze", "{p}"], ["adjudicate", "{p}", "--rule", "median"], ["freeze", "{p}"]],
    "import ana's ratings": [["import-qrels", "{p}", "{ana}", "--annotator", "ana"]],
    # a model judges a draft only; the endpoint is never reached in these states (a draft: refused, no command)
    "judge": [["judge", "{p}", "--endpoint", "http://127.0.0.1:9/v1", "--model", "x"]],
    "fill from a model": [["freeze", "{p}", "--fill-ungraded-from", "model:x"]],
}


STATES = ("fresh", "fresh with a run", "draft", "pooled draft", "frozen only")
FRESH = ["import-qrels PROJECT FILE"]
WITH_A_RUN = ["import-qrels PROJECT FILE", "pool PROJECT --depth K --runs NAME"]
ADJUDICATE = ["adjudicate PROJECT --rule median", "adjudicate PROJECT"]
ASSIGN = ["assign PROJECT --annotators NAMES -o DIR"]
# What each trigger's refusals suggest in each state, in order (each command is run by the test); [] where
# nothing is refused, or the refusal names no command.
FOLLOWED = {
    ("assign", "fresh"): FRESH,
    ("assign", "fresh with a run"): WITH_A_RUN,
    ("assign", "draft"): [],
    ("assign", "pooled draft"): [],
    ("assign", "frozen only"): ["new-draft PROJECT"],
    ("merge a project that is no work file", "fresh"): FRESH,
    ("merge a project that is no work file", "fresh with a run"): WITH_A_RUN,
    ("merge a project that is no work file", "draft"): ASSIGN,
    ("merge a project that is no work file", "pooled draft"): ASSIGN,
    ("merge a project that is no work file", "frozen only"): ["new-draft PROJECT"],
    ("new-draft", "fresh"): FRESH,
    ("new-draft", "fresh with a run"): WITH_A_RUN,
    ("new-draft", "draft"): [],  # continue the draft
    ("new-draft", "pooled draft"): [],
    ("new-draft", "frozen only"): [],
    ("export-qrels", "fresh"): FRESH,
    ("export-qrels", "fresh with a run"): FRESH,  # pooling alone gives nothing to freeze
    ("export-qrels", "draft"): ADJUDICATE,
    ("export-qrels", "pooled draft"): ASSIGN,
    ("export-qrels", "frozen only"): [],
    ("score", "fresh"): [],  # no run named sys
    ("score", "fresh with a run"): FRESH,
    ("score", "draft"): ADJUDICATE,
    ("score", "pooled draft"): ASSIGN,
    ("score", "frozen only"): [],
    ("freeze, adjudicate, freeze", "fresh"): [],
    ("freeze, adjudicate, freeze", "fresh with a run"): [],
    ("freeze, adjudicate, freeze", "draft"): [*ADJUDICATE, "freeze PROJECT --remove-ungraded"],
    ("freeze, adjudicate, freeze", "pooled draft"): [],  # no graded item to freeze: nothing to run for that
    ("freeze, adjudicate, freeze", "frozen only"): [],
    ("import ana's ratings", "fresh"): [],
    ("import ana's ratings", "fresh with a run"): [],
    ("import ana's ratings", "draft"): ["import-qrels PROJECT FILE --annotator NAME --replace"],
    ("import ana's ratings", "pooled draft"): [],
    ("import ana's ratings", "frozen only"): [],
    ("judge", "fresh"): FRESH,
    ("judge", "fresh with a run"): WITH_A_RUN,
    # the items have no texts: refused before the endpoint (which does not answer) is asked
    ("judge", "draft"): ["import-docs PROJECT FILE"],
    ("judge", "pooled draft"): ["import-docs PROJECT FILE"],
    ("judge", "frozen only"): ["new-draft PROJECT"],
    ("fill from a model", "fresh"): [],
    ("fill from a model", "fresh with a run"): [],
    ("fill from a model", "draft"): [],  # the model has no ratings: judge first (needs a server)
    ("fill from a model", "pooled draft"): [],
    ("fill from a model", "frozen only"): [],
}


def _strings(node: ast.AST) -> str:
    return " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


def refusal_types() -> set[str]:
    """The names of InputError and every subclass of it (the refusals), once every module outside the window is
    imported."""
    import importlib

    from ndcg_desktop.domain import InputError

    for path in SOURCE.rglob("*.py"):
        parts = path.relative_to(SOURCE.parent).with_suffix("").parts
        if "gui" not in parts and parts[-1] != "__main__":
            importlib.import_module(".".join(p for p in parts if p != "__init__"))
    names, todo = set(), [InputError]
    while todo:
        kind = todo.pop()
        names.add(kind.__name__)
        todo += kind.__subclasses__()
    return names


def refusal_sites() -> dict[str, set[str]]:
    """Per module (outside the window), the commands named by its refusals' texts: the arguments of every
    refusal made (raised or returned) and every ``hint=``."""
    kinds = refusal_types()
    found: dict[str, set[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        module = path.relative_to(SOURCE).as_posix()
        if module.startswith("gui/"):
            continue
        tree = ast.parse(path.read_text())
        texts = [_strings(tree)] if module in ADVICE_MODULES else []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name in kinds:
                    texts.append(_strings(node))
            elif isinstance(node, ast.keyword) and node.arg == "hint":
                texts.append(_strings(node))
        named = {m.group(1) for text in texts for m in NAMED.finditer(text)}
        if named:
            found[module] = named
    return found


def test_the_table_lists_every_refusal_that_names_a_command():
    assert refusal_sites() == SITES


def suggestions(message: str) -> list[list[str]]:
    """The commands a message names: ``ndcg`` and its subcommand, then placeholders, options and their values."""
    out = []
    for match in NAMED.finditer(message):
        words = message[match.end() :].replace(")", " ) ").replace(";", " ; ").replace(",", " , ").split()
        argv = [match.group(1)]
        for word in words:
            if word.isupper() or word.startswith("-") or (argv[-1].startswith("--") and word.isalpha()):
                argv.append(word)
            else:
                break
        out.append(argv)
    return out


@pytest.fixture(scope="module")
def states(tmp_path_factory) -> dict[str, Path]:
    """The projects the triggers run in (copied for each use)."""
    root = tmp_path_factory.mktemp("states")
    files = {name: root / f"{name}.qrels" for name in ("ana", "ben")}
    files["ana"].write_text(ANA)
    files["ben"].write_text(BEN)
    (root / "sys.run").write_text(RUN)
    made: dict[str, Path] = {}
    for state in STATES:
        path = root / f"{state.replace(' ', '_')}.ndcgproj"
        assert main(["init", str(path)]) == 0
        if state != "fresh":
            assert main(["import-run", str(path), str(root / "sys.run"), "--name", "sys"]) == 0
        if state == "draft":
            assert main(["import-qrels", str(path), str(files["ana"]), "--annotator", "ana"]) == 0
            assert (
                main(["import-qrels", str(path), str(files["ben"]), "--annotator", "ben", "--negative-as-ungraded"])
                == 0
            )
        if state == "pooled draft":
            assert main(["pool", str(path), "--depth", "10", "--runs", "sys"]) == 0
        if state == "frozen only":
            assert main(["import-qrels", str(path), str(files["ana"])]) == 0
            assert main(["freeze", str(path)]) == 0
        made[state] = path
    with Project.open(made["draft"], read_only=True) as project:  # the draft holds what the triggers need
        assert (project.ratings.unsettled(1), project.judgments.draft_ungraded()) == (1, (1, 2))
    return made


def fill(argv: list[str], values: dict[str, str]) -> list[str]:
    return [values.get(word, word) for word in argv]


def follow(argv: list[str], project: Path, tmp: Path, values: dict[str, str], capsys) -> None:
    """Run a suggested command on a copy of ``project``, its placeholders filled in; it must succeed."""
    copy = tmp / f"copy-{len(list(tmp.iterdir()))}.ndcgproj"
    shutil.copyfile(project, copy)
    after = {"--runs": "sys", "--annotator": values["{name}"], "--annotators": "cy,dee", "-o": str(tmp / "new-dir")}
    filled = []
    for i, word in enumerate(argv):
        if word == "PROJECT":
            word = str(copy)
        elif word == "FILE":
            word = values.get("{file:" + argv[0] + "}", values["{file}"])  # the kind of file the command reads
        elif word == "K":
            word = "10"
        elif word.isupper():
            word = after[argv[i - 1]] if argv[i - 1] in after else word
        filled.append(word)
    code = main(filled)
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), f"the suggestion {' '.join(argv)} failed: {err}"


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("trigger", list(TRIGGERS))
def test_every_suggested_command_works_in_the_state_the_refusal_saw(states, state, trigger, tmp_path, capsys):
    project = tmp_path / "p.ndcgproj"
    shutil.copyfile(states[state], project)
    other = tmp_path / "other.ndcgproj"
    Project.create(other, annotator="x").close()
    ana = tmp_path / "ana.qrels"
    ana.write_text(ANA)
    docs, topics = tmp_path / "docs.jsonl", tmp_path / "topics.tsv"
    docs.write_text("".join(f'{{"doc_id": "{d}", "title": "", "text": "text of {d}"}}\n' for d in "ABCD"))
    topics.write_text("q1\twing flutter\nq2\theat transfer\n")
    values = {
        "{p}": str(project),
        "{dir}": str(tmp_path / "work"),
        "{other}": str(other),
        "{out}": str(tmp_path / "out.qrels"),
        "{ana}": str(ana),
        "{file}": str(ana),
        "{file:import-docs}": str(docs),
        "{file:import-queries}": str(topics),
        "{name}": "ana" if trigger == "import ana's ratings" else "cy",
    }
    followed: list[str] = []
    for step in TRIGGERS[trigger]:
        code = main(fill(step, values))
        err = capsys.readouterr().err
        if code == 0:
            continue
        assert code == 2 and err.count("\n") == 1, err
        for argv in suggestions(err):
            follow(argv, project, tmp_path, values, capsys)
            followed.append(" ".join(argv))
    # the read-only refusals name `ndcg status PROJECT`: it works in every state
    follow(["status", "PROJECT"], project, tmp_path, values, capsys)
    assert followed == FOLLOWED[trigger, state]


def test_the_refusals_of_the_issue_now_suggest_a_way_out(states, tmp_path, capsys):
    """The circle of issue 27: assign, then new-draft, in a fresh project."""
    project = tmp_path / "t.ndcgproj"
    shutil.copyfile(states["fresh"], project)
    assert main(["assign", str(project), "--annotators", "ana,ben", "-o", str(tmp_path / "w")]) == 2
    assert capsys.readouterr().err == (
        f"error: {project}: has no draft pool to hand out or merge into; import judgments to start one (ndcg "
        "import-qrels PROJECT FILE; add --annotator NAME for one assessor's grades)\n"
    )
    assert main(["new-draft", str(project)]) == 2
    assert capsys.readouterr().err == (
        f"error: {project}: has no frozen version to copy; import judgments to start one (ndcg import-qrels PROJECT "
        "FILE; add --annotator NAME for one assessor's grades)\n"
    )
    assert suggestions(
        "x (ndcg pool PROJECT --depth K --runs NAME), y (ndcg adjudicate PROJECT --rule median settles them)"
    ) == [["pool", "PROJECT", "--depth", "K", "--runs", "NAME"], ["adjudicate", "PROJECT", "--rule", "median"]]
