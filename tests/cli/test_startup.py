"""Start-up cost of the command line (issue 13, target 5): what each command imports, decided in a clean interpreter.

Times are measured by ``benchmarks/startup.py`` and ``python -X importtime``; these tests pin the cause
instead: a module that is not imported costs nothing, whatever the machine's load.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("numpy", "pyarrow", "pandas", "ndcg_desktop.store")


def _imported_after(argv: list[str]) -> list[str]:
    code = (
        "import json, sys\n"
        "from ndcg_desktop.cli.main import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def test_version_imports_no_numpy_pyarrow_pandas_or_store():
    assert _imported_after(["--version"]) == []


def test_the_version_is_printed_without_them():
    done = subprocess.run(
        [sys.executable, "-m", "ndcg_desktop", "--version"], check=True, capture_output=True, text=True
    )
    from ndcg_desktop import __version__

    assert done.stdout.strip() == f"ndcg-desktop {__version__}"


def test_every_module_that_holds_the_command_line_runs_it_with_python_m():
    """``python -m ndcg_desktop.cli.main score ...`` (the module the ``ndcg`` script names) ran nothing and exited
    0: a script that called it so believed it had scored."""
    from ndcg_desktop import __version__

    for module in ("ndcg_desktop", "ndcg_desktop.cli.main"):
        done = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True)
        assert (done.returncode, done.stdout.strip()) == (0, f"ndcg-desktop {__version__}"), module
        done = subprocess.run(
            [sys.executable, "-m", module, "status", "missing.ndcgproj"], capture_output=True, text=True
        )
        assert done.returncode == 2 and done.stderr.startswith("error: missing.ndcgproj"), (module, done.stderr)


def test_scoring_files_imports_no_store(tmp_path):
    """``ndcg score --qrels --run`` goes through tasks.files, and tasks/__init__ imports its use cases lazily:
    the project store (and the rest of tasks) is never loaded to score two files."""
    (tmp_path / "q.txt").write_text("q1 0 A 1\n")
    (tmp_path / "r.txt").write_text("q1 Q0 A 1 1 s\n")
    code = (
        "import sys\n"
        "from ndcg_desktop.cli.main import main\n"
        f"assert main(['score', '--qrels', {str(tmp_path / 'q.txt')!r}, '--run', {str(tmp_path / 'r.txt')!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith(('ndcg_desktop.store', 'ndcg_desktop.tasks'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert done.stdout.strip().splitlines()[-1] == "['ndcg_desktop.tasks', 'ndcg_desktop.tasks.files']"


def test_the_scoring_command_calls_the_use_case(monkeypatch, tmp_path):
    """One way in: the command line's file scoring is tasks.files.score_files, not a copy of it."""
    import ndcg_desktop.tasks.files as files
    from ndcg_desktop.cli.main import main

    calls = []
    real = files.score_files
    monkeypatch.setattr(files, "score_files", lambda *a, **k: calls.append((a, k)) or real(*a, **k))
    (tmp_path / "q.txt").write_text("q1 0 A 1\n")
    (tmp_path / "r.txt").write_text("q1 Q0 A 1 1 s\n")
    assert main(["score", "--qrels", str(tmp_path / "q.txt"), "--run", str(tmp_path / "r.txt")]) == 0
    assert [a[:2] for a, _ in calls] == [(str(tmp_path / "q.txt"), str(tmp_path / "r.txt"))]
