#!/usr/bin/env python3
"""Checks that relative Markdown links and `path` mentions of repository
files in the given Markdown files exist. usage: check_links.py FILE.md..."""
import os
import re
import sys


def main(paths):
    total, broken = 0, []
    for path in paths:
        base = os.path.dirname(os.path.abspath(path))
        text = open(path).read()
        for m in re.finditer(r"\]\(([^)#\s]+)(#[^)]*)?\)", text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            total += 1
            if not os.path.exists(os.path.join(base, target)):
                broken.append("%s: broken link %s" % (path, target))
    for b in broken:
        print(b)
    print("check-links: %d links, %d broken" % (total, len(broken)))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
