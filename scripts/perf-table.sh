#!/usr/bin/env bash
# perf-table.sh regenerates the performance table of docs/performance.md (issue #27): min / median / max of the timed commands
# and benchmarks, with the machine and its load average, as Markdown on stdout (progress on stderr).
#
#   scripts/perf-table.sh [-n ROUNDS] [-w] [-b BASE_REF]
#
#   -n ROUNDS   timed rounds of each command, interleaved (default 5)
#   -w          also time `falsify --whole-document` (minutes per run; once with --jobs 1, once with the default)
#   -b REF      also build REF (a commit, e.g. the one before #27) and interleave its runs with HEAD's
#
# Run it from the repository root on a quiet machine; it writes only under a temporary directory.
set -euo pipefail

rounds=5 whole=0 base=""
while getopts "n:wb:" o; do
	case $o in
	n) rounds=$OPTARG ;;
	w) whole=1 ;;
	b) base=$OPTARG ;;
	*) sed -n '2,11p' "$0" >&2; exit 2 ;;
	esac
done
[ -x /usr/bin/time ] || { echo "perf-table: needs GNU time at /usr/bin/time" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -z "$base" ] || git worktree remove --force "$tmp/base-src" >/dev/null 2>&1 || true' EXIT
log() { echo "perf-table: $*" >&2; }
load() { cut -d' ' -f1 /proc/loadavg; }

log "building HEAD ($(git rev-parse --short HEAD))"
go build -o "$tmp/head" ./cmd/runsuite
bins=(head)
if [ -n "$base" ]; then
	log "building $base"
	git worktree add --detach "$tmp/base-src" "$base" >/dev/null 2>&1
	(cd "$tmp/base-src" && go build -o "$tmp/base" ./cmd/runsuite)
	bins=(base head)
fi

# timed LABEL BIN ARGS...: one run; appends "wall user+sys rss_kib load" to $tmp/LABEL.BIN
timed() {
	local label=$1 bin=$2; shift 2
	local l; l=$(load)
	local rc=0
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$tmp/$bin" "$@" >/dev/null 2>"$tmp/err" || rc=$?
	if [ "$rc" -gt 1 ]; then # 1: a row or toggle failed, still a full run; anything else is not a timing
		echo "perf-table: $bin $* exited $rc:" >&2
		tail -n 5 "$tmp/err" >&2
		exit 1
	fi
	# the last line: GNU time writes "Command exited with non-zero status N" first when it did (falsify exits 1
	# when a toggle survives, as one does with --whole-document)
	tail -n 1 "$tmp/t" | awk -v l="$l" '{printf "%s %.2f %d %s\n", $1, $2+$3, $4, l}' >>"$tmp/$label.$bin"
}

# jobs BIN N: the --jobs flag for N, or nothing when BIN predates it (the commit before #27 is serial only)
declare -A hasjobs
for b in "${bins[@]}"; do
	hasjobs[$b]=0
	if "$tmp/$b" falsify -h 2>&1 | grep -q -- '-jobs'; then hasjobs[$b]=1; fi
done
jobs() { [ "${hasjobs[$1]}" = 1 ] && echo "--jobs $2" || true; }

for r in $(seq "$rounds"); do
	for b in "${bins[@]}"; do
		log "round $r/$rounds, $b (load $(load))"
		timed run "$b" run --force --out "$tmp/bundle"
		# shellcheck disable=SC2046 # $(jobs …) is zero or two words
		timed jobs1 "$b" falsify $(jobs "$b" 1)
		if [ "${hasjobs[$b]}" = 1 ]; then timed jobs2 "$b" falsify --jobs 2; fi
	done
done
if [ "$whole" = 1 ]; then
	for b in "${bins[@]}"; do
		log "whole document, $b, serial"
		# shellcheck disable=SC2046
		timed whole1 "$b" falsify --whole-document $(jobs "$b" 1)
		if [ "${hasjobs[$b]}" = 1 ]; then
			log "whole document, $b, --jobs $(nproc)"
			timed wholeN "$b" falsify --whole-document
		fi
	done
fi

log "benchmarks (load $(load))"
# -count N would run bare N times, then harness N times: one count per round keeps the pairs in the same minute
for r in $(seq "$rounds"); do
	go test -run '^$' -bench 'RPCOverhead' -benchmem -count 1 ./harness/a2a/ >>"$tmp/rpc.txt"
done
go test -run '^$' -bench 'FullRun' -benchtime 3x -count "$rounds" ./falsify/ >"$tmp/full.txt"

# stats FIELD FILE: "min / median / max" of column FIELD
stats() {
	sort -n -k"$1","$1" "$2" | awk -v f="$1" '{v[NR]=$f} END {
		if (NR == 0) { print "-"; exit }
		m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2
		printf "%s / %s / %s", v[1], m, v[NR] }'
}
median() { sort -n -k"$1","$1" "$2" | awk -v f="$1" '{v[NR]=$f} END { print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2 }'; }
rss() { sort -n -k3,3 "$1" | awk '{v[NR]=$3} END { printf "%d–%d MiB", v[1]/1024, v[NR]/1024 }'; }
loads() { sort -n -k4,4 "$1" | awk '{v[NR]=$4} END { printf "%s–%s", v[1], v[NR] }'; }
# pairs: jobs2/jobs1 per round, in order
pairs() { paste -d' ' "$tmp/jobs2.$1" "$tmp/jobs1.$1" | awk '{printf "%s%.2f", (NR>1?", ":""), $1/$5}'; }
bench() { grep "^Benchmark$1" "$2" | awk '{print $3}' | sort -n | awk '{v[NR]=$1} END {
	m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2
	printf "%.0f %.0f %.0f", v[1], m, v[NR] }'; }

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr), $(go version | cut -d' ' -f3);"
echo "HEAD $(git rev-parse --short HEAD)${base:+, base $base}; $rounds interleaved round(s); load average $(loads "$tmp/run.head") during the timed runs."
echo
echo "| what | binary | wall s (min / median / max) | CPU s (user+sys) | peak RSS | load |"
echo "|---|---|---|---|---|---|"
for b in "${bins[@]}"; do
	for k in run jobs1 jobs2 whole1 wholeN; do
		f="$tmp/$k.$b"
		[ -s "$f" ] || continue
		case $k in
		run) what='default run (`runsuite run --force --out DIR`)' ;;
		jobs1) what='the matrix, serial (`falsify --jobs 1`)' ;;
		jobs2) what='the matrix, `falsify --jobs 2`' ;;
		whole1) what='`falsify --whole-document`, serial (`--jobs 1`)' ;;
		wholeN) what="\`falsify --whole-document\` (--jobs $(nproc))" ;;
		esac
		echo "| $what | $b | $(stats 1 "$f") | $(stats 2 "$f") | $(rss "$f") | $(loads "$f") |"
	done
	[ -s "$tmp/jobs2.$b" ] || continue
	j1=$(median 1 "$tmp/jobs1.$b") j2=$(median 1 "$tmp/jobs2.$b")
	echo "| matrix --jobs 2 / --jobs 1 | $b | median $(awk -v a="$j2" -v b="$j1" 'BEGIN{printf "%.2f", a/b}')×; per round: $(pairs "$b") | | | |"
done
read -r bmin bmed bmax <<<"$(bench 'RPCOverhead/bare' "$tmp/rpc.txt")"
read -r hmin hmed hmax <<<"$(bench 'RPCOverhead/harness' "$tmp/rpc.txt")"
read -r fmin fmed fmax <<<"$(bench 'FullRun' "$tmp/full.txt")"
echo
echo "| benchmark | min / median / max |"
echo "|---|---|"
echo "| \`BenchmarkRPCOverhead/bare\` µs/op | $(awk -v a="$bmin" -v b="$bmed" -v c="$bmax" 'BEGIN{printf "%.0f / %.0f / %.0f", a/1000, b/1000, c/1000}') |"
echo "| \`BenchmarkRPCOverhead/harness\` µs/op | $(awk -v a="$hmin" -v b="$hmed" -v c="$hmax" 'BEGIN{printf "%.0f / %.0f / %.0f", a/1000, b/1000, c/1000}') |"
echo "| harness / bare | $(awk -v a="$hmin" -v b="$bmin" -v c="$hmed" -v d="$bmed" 'BEGIN{printf "%.2f× at the minimum, %.2f× at the median", a/b, c/d}') |"
echo "| \`BenchmarkFullRun\` s/op | $(awk -v a="$fmin" -v b="$fmed" -v c="$fmax" 'BEGIN{printf "%.2f / %.2f / %.2f", a/1e9, b/1e9, c/1e9}') |"
echo
echo "Commands: \`go test -run '^\$' -bench RPCOverhead -benchmem -count 1 ./harness/a2a/\` ($rounds times); \`go test -run '^\$' -bench FullRun -benchtime 3x -count $rounds ./falsify/\`; the others timed with \`/usr/bin/time\`."
