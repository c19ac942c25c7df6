#!/usr/bin/env python3
"""Where the test time goes: the slowest test classes of the last Maven run, and the total per tier.

Reads the JUnit XML reports Maven leaves under each module's target/ (surefire-reports, failsafe-reports,
fuzz-reports) and prints the N slowest classes (default 25), then the time per tier:

  unit    every module's surefire tests but the it module's (src/test of protocol, native, agent, collector, cli)
  it      the it module's surefire tests (the fast cross-module tests)
  it-IT   the it module's failsafe tests (*IT: the lab, soak, cluster, Prometheus and scenario ITs, which are @Slow,
          and the few fast ones)
  fuzz    the fuzzing pass (*FuzzTest run with JAZZER_FUZZ=1, docs/fuzzing.md)

A class's time is the report's own `time` attribute (the sum of its tests' times, what the class cost inside its
fork); fork start-up and Maven's own work are outside it, which is why the tiers add up to less than the wall clock.
Classes run side by side (docs/testing.md): two modules at a time, the command line's classes, the ITs and the fuzz
tests two at a time. A tier's sum is then more than the minutes it takes.

Usage: scripts/slowest-tests.py [--top N] [REPO_DIR]   (REPO_DIR defaults to the repository this script is in)
"""
import argparse
import glob
import os
import sys
import xml.etree.ElementTree as ET

TIERS = ("unit", "it", "it-IT", "fuzz")


def tier_of(module, reports_dir):
    if reports_dir == "fuzz-reports":
        return "fuzz"
    if module == "it":
        return "it-IT" if reports_dir == "failsafe-reports" else "it"
    return "unit"


def read_reports(repo):
    """Yields (tier, module, class name, seconds, tests, failures) for every report file found."""
    for path in sorted(glob.glob(os.path.join(repo, "*", "target", "*-reports", "TEST-*.xml"))):
        reports_dir = os.path.basename(os.path.dirname(path))
        module = os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(path))))
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            print(f"slowest-tests: skipping {path}: {e}", file=sys.stderr)
            continue
        suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
        for suite in suites:
            failures = int(suite.get("failures", "0")) + int(suite.get("errors", "0"))
            yield (tier_of(module, reports_dir), module, suite.get("name", "?"),
                   float(suite.get("time", "0").replace(",", "")), int(suite.get("tests", "0")), failures)


def minutes(seconds):
    return f"{int(seconds // 60)}:{int(round(seconds % 60)):02d}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--top", type=int, default=25, help="how many classes to list (default 25)")
    parser.add_argument("repo", nargs="?", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()

    rows = list(read_reports(args.repo))
    if not rows:
        print(f"slowest-tests: no test reports under {args.repo}/*/target/*-reports (run the tests first)",
              file=sys.stderr)
        return 2
    rows.sort(key=lambda r: r[3], reverse=True)
    print(f"| # | class | module | tier | tests | seconds |")
    print(f"|---|---|---|---|---|---|")
    for i, (tier, module, name, seconds, tests, failures) in enumerate(rows[:args.top], 1):
        flag = f" ({failures} failed)" if failures else ""
        print(f"| {i} | {name.rsplit('.', 1)[-1]}{flag} | {module} | {tier} | {tests} | {seconds:.1f} |")
    print()
    print("| tier | classes | tests | time (m:ss) |")
    print("|---|---|---|---|")
    for tier in TIERS:
        of_tier = [r for r in rows if r[0] == tier]
        if of_tier:
            print(f"| {tier} | {len(of_tier)} | {sum(r[4] for r in of_tier)} | {minutes(sum(r[3] for r in of_tier))} |")
    print(f"| all | {len(rows)} | {sum(r[4] for r in rows)} | {minutes(sum(r[3] for r in rows))} |")
    print()
    print("(modules, the command line's classes, ITs and fuzz tests run two at a time: sums exceed the minutes taken)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
