#!/usr/bin/python3
"""The time make check spends running models end to end, under two builds.

The model tests' executions (their `%check_equivalence` and `%onnx_run` RUN
lines: fused against unfused, and imported ONNX against PyTorch's outputs)
are taken from one set of test files and timed under each build given, each
build with its own scripts, interleaved round by round, so that the builds
are measured on the same work in the same run. Lines that prepare an input
for them (`fuse-translate --import-onnx ... -o %t...`) run first, untimed,
with the build that is being measured. A command that fails is reported and
counted as a failure of its build; its time is still shown.

usage: bench/test-time.py --build NAME=SOURCE:BUILD [--build ...]
                          [--tests-from SOURCE] [--rounds 3] [--json FILE]
                          [--out FILE.md] [TEST ...]

TEST defaults to the model tests of --tests-from (test/Models/*.mlir and
test/Models/onnx/models.test). Example (a build of an older commit in a
worktree beside this one):

  bench/test-time.py --build old=/tmp/old:/tmp/old/build \\
                     --build new=.:build --tests-from /tmp/old
"""
import argparse
import datetime
import glob
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"
TIMED = ("%check_equivalence", "%onnx_run")


def run_lines(path):
    """The RUN commands of a lit test, continuations joined."""
    lines, pending = [], ""
    with open(path) as f:
        for raw in f:
            m = re.search(r"(?://|#)\s*RUN:\s?(.*)$", raw)
            if not m:
                continue
            text = m.group(1).rstrip()
            if text.endswith("\\"):
                pending += text[:-1] + " "
                continue
            lines.append(pending + text)
            pending = ""
    return lines


def first_command(line):
    """The command before the first pipe (the part that is timed)."""
    return line.split("|", 1)[0].strip()


def substitute(cmd, test, tmp, source, build):
    tools = {
        "%check_equivalence": f"{PYTHON} {source}/scripts/check-equivalence.py "
                              f"--fuse-opt {build}/bin/fuse-opt",
        "%onnx_run": f"{PYTHON} {source}/scripts/onnx-run.py "
                     f"--fuse-compile {build}/bin/fuse-compile",
    }
    for key, value in tools.items():
        cmd = cmd.replace(key, value)
    cmd = cmd.replace("%S", os.path.dirname(test)).replace("%s", test)
    cmd = cmd.replace("%t", os.path.join(tmp, "t"))
    words = shlex.split(cmd)
    if words and words[0] in ("fuse-translate", "fuse-opt", "fuse-compile"):
        words[0] = os.path.join(build, "bin", words[0])
    return words


def collect(tests):
    """(test, index, preparation commands, timed command) for every timed line."""
    work = []
    for test in tests:
        prep = []
        for k, line in enumerate(run_lines(test)):
            cmd = first_command(line)
            if cmd.startswith(TIMED):
                work.append((test, k, list(prep), cmd))
            elif cmd.startswith("fuse-translate") and " -o %t" in cmd:
                prep.append(cmd)
    return work


def commit_of(source):
    proc = subprocess.run(["git", "-C", source, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else "unknown commit"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="append", required=True,
                        help="NAME=SOURCE:BUILD (a checkout and its build directory)")
    parser.add_argument("--tests-from", default=ROOT,
                        help="the checkout whose test files are run (default: this one)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="write the per-line times here")
    parser.add_argument("--out", help="also write the table as Markdown here, with the run's "
                                      "date, commits and command")
    parser.add_argument("tests", nargs="*")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    builds = []
    for spec in args.build:
        name, sep, paths = spec.partition("=")
        source, sep2, build = paths.partition(":")
        if not sep or not sep2 or not name:
            parser.error(f"--build {spec!r}: expected NAME=SOURCE:BUILD")
        source, build = os.path.abspath(source), os.path.abspath(build)
        for tool in ("fuse-opt", "fuse-translate", "fuse-compile"):
            if not os.access(os.path.join(build, "bin", tool), os.X_OK):
                parser.error(f"--build {name}: no {tool} in {build}/bin")
        builds.append((name, source, build))

    tests = args.tests or (sorted(glob.glob(os.path.join(args.tests_from, "test/Models/*.mlir")))
                           + [os.path.join(args.tests_from, "test/Models/onnx/models.test")])
    tests = [os.path.abspath(t) for t in tests]
    for t in tests:
        if not os.path.isfile(t):
            parser.error(f"no test file {t}")
    work = collect(tests)
    if not work:
        sys.exit("error: the tests have no %check_equivalence or %onnx_run lines")

    times = {name: [[] for _ in work] for name, _, _ in builds}
    failures = {name: set() for name, _, _ in builds}
    with tempfile.TemporaryDirectory(prefix="fuse-test-time-") as tmp:
        for r in range(args.rounds):
            for name, source, build in builds:
                for w, (test, k, prep, cmd) in enumerate(work):
                    for p in prep:
                        subprocess.run(substitute(p, test, tmp, source, build),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    words = substitute(cmd, test, tmp, source, build)
                    start = time.perf_counter()
                    proc = subprocess.run(words, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True)
                    times[name][w].append(time.perf_counter() - start)
                    if proc.returncode != 0:
                        if w not in failures[name]:
                            last = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
                            print(f"{name}: {os.path.basename(test)} RUN {k + 1} failed: {last}",
                                  file=sys.stderr)
                        failures[name].add(w)
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)

    names = [b[0] for b in builds]
    out = []
    out.append(f"{len(work)} timed lines from {len(tests)} test files, {args.rounds} rounds "
               f"(median seconds; builds interleaved)")
    out.append("")
    out.append("| test | line | " + " | ".join(names) + " |")
    out.append("|---|---|" + "---:|" * len(names))
    totals = {n: 0.0 for n in names}
    for w, (test, k, _, cmd) in enumerate(work):
        cells = []
        for n in names:
            m = statistics.median(times[n][w])
            totals[n] += m
            cells.append(f"{m:.2f}" + (" FAIL" if w in failures[n] else ""))
        what = " ".join(cmd.split()[1:])[:60]
        out.append(f"| {os.path.basename(test)} | {what} | " + " | ".join(cells) + " |")
    out.append("| **total** | | " + " | ".join(f"**{totals[n]:.1f}**" for n in names) + " |")
    for n in names:
        if failures[n]:
            out.append(f"{n}: {len(failures[n])} of {len(work)} lines failed")
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write("# make check's model runs under two builds\n\n")
            f.write(f"Measured by `{' '.join(['bench/test-time.py'] + sys.argv[1:])}` on "
                    f"{datetime.date.today()} ({os.cpu_count()} cores, this machine). ")
            f.write("Builds: " + ", ".join(f"{n} = {commit_of(s)} ({b})" for n, s, b in builds) + ". ")
            f.write("Each line's command (the `%check_equivalence` and `%onnx_run` RUN lines of the "
                    "tests, up to the first pipe) ran under every build, with that build's own scripts, "
                    "one round of every build before the next round; seconds are the median of the "
                    "rounds, wall clock.\n\n")
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tests": tests, "rounds": args.rounds,
                       "lines": [{"test": t, "run": k + 1, "command": c} for t, k, _, c in work],
                       "builds": {n: {"source": s, "build": b, "seconds": times[n],
                                      "failed": sorted(failures[n])} for n, s, b in builds}},
                      f, indent=1)
    sys.exit(1 if any(failures.values()) else 0)


if __name__ == "__main__":
    main()
