"""``ndcg_desktop.tasks`` names its use cases without importing them (PEP 562): ``ndcg score`` on two files
loads no project store, and every name it lists is the submodule's own object."""

from __future__ import annotations

import importlib
import subprocess
import sys


def test_importing_the_package_imports_no_use_case():
    code = (
        "import sys, ndcg_desktop.tasks\n"
        "print(sorted(m for m in sys.modules if m.startswith('ndcg_desktop.') or m in ('pandas', 'numpy')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert done.stdout.strip() == "['ndcg_desktop.tasks']"


def test_every_listed_name_is_its_modules_object():
    import ndcg_desktop.tasks as tasks

    assert sorted(tasks.__all__) == sorted(set(tasks.__all__)) == sorted(tasks._HOMES)
    assert sorted(dir(tasks)) == sorted(set(dir(tasks)) | set(tasks.__all__))
    for name in tasks.__all__:
        value = getattr(tasks, name)
        home = importlib.import_module(value.__module__)
        assert getattr(home, name) is value, name


def test_an_unknown_name_is_an_attribute_error():
    import ndcg_desktop.tasks as tasks

    try:
        tasks.no_such_use_case  # noqa: B018
    except AttributeError as exc:
        assert "no_such_use_case" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")
