"""`ndcg score` from two or more checkouts side by side with trec_eval, on one of score_speed.py's data sets.

Each round runs every checkout (and trec_eval) once, alternating, as a fresh process under
``/usr/bin/time``: wall, user and system seconds, peak RSS and minor page faults, medians over the
rounds. Peak RSS, page faults and CPU seconds hold on a loaded machine; wall time there measures the
load. The data sets are score_speed.py's (generate them first with it, same ``--data-dir`` and seed).

    python benchmarks/score_ab.py --ids msmarco --size 7000 --rounds 3 /work/wt/perf-base /work/wt/perf
    python benchmarks/score_ab.py --ids msmarco --size 7000 --gzip /work/wt/perf-base /work/wt/perf
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIELDS = ("wall", "user", "sys", "rss_mib", "faults")


def command(tool: str, qrels: Path, run: Path, trec_eval: Path, scratch: Path) -> tuple[list[str], dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # cached bytecode, as users run
    if tool == "trec_eval":
        if run.suffix == ".gz":  # trec_eval maps its files: given the decompressed run, both timed (as score_speed.py)
            script = f'zcat "{run}" > "{scratch}" && "{trec_eval}" -m ndcg_cut.10 "{qrels}" "{scratch}"'
            return ["sh", "-c", script], env
        return [str(trec_eval), "-m", "ndcg_cut.10", str(qrels), str(run)], env
    env["PYTHONPATH"] = tool  # the checkout's package, imported from outside every checkout
    score = ["score", "--qrels", str(qrels), "--run", str(run), "--unjudged", "zero", "--k", "10", "--json"]
    return [sys.executable, "-m", "ndcg_desktop", *score], env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", nargs="+", help="folders holding an ndcg_desktop package")
    parser.add_argument("--ids", default="msmarco", help="string, msmarco or numeric (score_speed.py's kinds)")
    parser.add_argument("--size", type=int, default=7000, help="queries, x 1,000 lines")
    parser.add_argument("--gzip", action="store_true", help="the gzip-compressed run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--data-dir", type=Path, default=HERE / "data")
    args = parser.parse_args(argv)

    stem = args.data_dir / f"msmarco-like-v2-{args.ids}-q{args.size}-d1000-s{args.seed}"
    qrels, run = stem.with_suffix(".qrels"), Path(f"{stem}.run{'.gz' if args.gzip else ''}")
    trec_eval = args.data_dir / "trec_eval-O2" / "trec_eval"
    for needed in (qrels, run, trec_eval):
        if not needed.exists():
            parser.error(f"{needed} is missing: generate it with benchmarks/score_speed.py --data-dir {args.data_dir}")
    tools = [str(Path(c).resolve()) for c in args.checkouts] + ["trec_eval"]
    figures: dict[str, list[tuple[float, ...]]] = {tool: [] for tool in tools}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for tool in tools:
                cmd, env = command(tool, qrels, run, trec_eval, Path(tmp) / "run.txt")
                timed = ["/usr/bin/time", "-f", "%e %U %S %M %R", "-o", f"{tmp}/time", *cmd]
                done = subprocess.run(timed, env=env, capture_output=True, text=True, cwd=tmp)
                if done.returncode:
                    sys.exit(f"{tool} failed:\n{done.stderr[-2000:]}")
                score = (
                    float(done.stdout.split()[-1])
                    if tool == "trec_eval"
                    else json.loads(done.stdout)["summary"]["mean_ndcg"]
                )
                wall, user, system, rss, faults = Path(f"{tmp}/time").read_text().split()[-5:]
                row = (float(wall), float(user), float(system), int(rss) / 1024, int(faults))
                figures[tool].append(row)
                print(
                    f"{tool}: {dict(zip(FIELDS, row, strict=True))} nDCG@10 {score:.6f} "
                    f"(load {os.getloadavg()[0]:.1f})",
                    file=sys.stderr,
                    flush=True,
                )
    name = f"{args.ids} {args.size / 1000:g}M{' gzip' if args.gzip else ''}"
    print(f"\n{name}, medians of {args.rounds} alternating rounds\n")
    print(
        "| tool | wall s | user s | sys s | CPU s | peak RSS MiB | minor faults | CPU / trec_eval | RSS / trec_eval |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    base = [statistics.median(c) for c in zip(*figures["trec_eval"], strict=True)]
    for tool, rows in figures.items():
        med = [statistics.median(c) for c in zip(*rows, strict=True)]
        cpu, base_cpu = med[1] + med[2], base[1] + base[2]
        print(
            f"| {tool} | {med[0]:.2f} | {med[1]:.2f} | {med[2]:.2f} | {cpu:.2f} | {max(r[3] for r in rows):.0f} | "
            f"{med[4]:.0f} | {cpu / base_cpu:.2f} | {max(r[3] for r in rows) / base[3]:.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
