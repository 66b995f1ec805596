"""The reader fuzz tests (tests/formats/test_fuzz.py) run far longer than the suite runs them.

Every reader and each command's input path gets random bytes and mutated valid files; each must
read them or refuse them with one ``path:line: problem`` line, never a traceback.

    python benchmarks/fuzz_readers.py                    # 5,000 examples per test (a few minutes)
    python benchmarks/fuzz_readers.py --examples 50000   # longer
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=5000, help="hypothesis examples per test (default 5000)")
    args = parser.parse_args()
    started = time.perf_counter()
    status = subprocess.call(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/formats/test_fuzz.py"],
        cwd=REPO,
        env={**os.environ, "NDCG_FUZZ_EXAMPLES": str(args.examples)},
    )
    print(
        f"{args.examples} examples per test: {'no traceback' if status == 0 else 'FAILED'} "
        f"in {time.perf_counter() - started:.0f} s"
    )
    return status


if __name__ == "__main__":
    sys.exit(main())
