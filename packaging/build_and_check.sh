#!/usr/bin/env bash
# Build the Linux bundle as packaging/README.md says, then check a copy of it the way a user gets it:
# copied with `cp -L` to another folder, run under `env -i` (no LANG, no PATH beyond /usr/bin:/bin).
#
#     packaging/build_and_check.sh [WORK_FOLDER]      # default /tmp/pkgbuild; takes minutes
#
# Fails (non-zero) on any problem: a dangling link or a library that should have been left out
# (packaging/check_bundle.py), the command line not giving Cranfield's 0.5105, the window not
# opening the demo in English and in Chinese under Xvfb, or anything on stderr at start-up.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/pkgbuild}
repo=$(pwd)

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q . pyinstaller
"$work/venv/bin/pyinstaller" --noconfirm --log-level WARN --distpath "$work/dist" --workpath "$work/work" \
    packaging/ndcg-desktop.spec
python3 packaging/check_bundle.py "$work/dist/ndcg-desktop"

copy="$work/copy/ndcg-desktop"
rm -rf "$work/copy" && mkdir -p "$work/copy"
cp -rL "$work/dist/ndcg-desktop" "$copy"   # fails on a dangling link
python3 packaging/check_bundle.py "$copy"
du -sh "$work/dist/ndcg-desktop" | sed 's/^/size: /'

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
run() { env -i HOME="$home" PATH=/usr/bin:/bin "$@"; }

cd "$home"
out=$(run "$copy/ndcg" score --qrels "$repo/tests/data/cranfield/qrels.txt" \
    --run "$repo/tests/data/cranfield/bm25.run.gz" --scale 0..4 --unjudged zero)
grep -q '^nDCG@10 mean *0\.5105 ' <<<"$out" || { echo "ndcg score: expected nDCG@10 mean 0.5105" >&2; exit 1; }
echo "ndcg score on Cranfield BM25: nDCG@10 mean 0.5105"

for language in en zh_CN; do
    run xvfb-run -a -s "-screen 0 1280x800x24" "$copy/ndcg-desktop" --demo --language "$language" \
        --smoke-test "$work/smoke-$language.png" 2>"$home/stderr"
    if [ -s "$home/stderr" ]; then
        echo "ndcg-desktop --language $language wrote to stderr:" >&2
        cat "$home/stderr" >&2
        exit 1
    fi
done
echo "bundle OK: $work/dist/ndcg-desktop (screenshots: $work/smoke-en.png, $work/smoke-zh_CN.png)"
if command -v fc-list >/dev/null && [ -z "$(fc-list :lang=zh)" ]; then
    echo "note: no CJK font here, so the Chinese screenshot shows boxes (apt-get install fonts-wqy-microhei)"
fi
