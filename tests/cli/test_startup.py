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
