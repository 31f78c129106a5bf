"""Print the test command's phase times and the slowest tests (scripts/test.sh).

Reads the phase lines scripts/test.sh appended (``name<TAB>seconds``) and the JUnit XML
reports its pytest parts wrote, so the figures are the runs' own.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

#: A phase that ran beside the others (the serial lane): shown, not added to the total.
BESIDE = "beside: "


def main(phases: Path, reports: list[Path], slowest: int = 25) -> None:
    rows = [line.split("\t") for line in phases.read_text().splitlines() if line]
    width = max(len(name) for name, _ in rows)
    print("\nseconds per phase")
    for name, seconds in rows:
        if not name.startswith(BESIDE):
            print(f"  {name:<{width}}  {float(seconds):7.1f}")
    total = sum(float(s) for name, s in rows if not name.startswith(BESIDE))
    print(f"  {'total':<{width}}  {total:7.1f}")
    for name, seconds in rows:
        if name.startswith(BESIDE):
            print(f"  {name:<{width}}  {float(seconds):7.1f}")
    tests = []
    for report in reports:
        if not report.exists():
            continue
        for case in ET.parse(report).iter("testcase"):
            name = f"{case.get('classname', '')}::{case.get('name', '')}"
            tests.append((float(case.get("time", 0)), report.stem, name))
    tests.sort(reverse=True)
    print(f"\nthe {min(slowest, len(tests))} slowest tests (seconds, part)")
    for seconds, part, name in tests[:slowest]:
        print(f"  {seconds:7.1f}  {part:<9} {name}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]])
