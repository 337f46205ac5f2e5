#!/usr/bin/env python3
"""Counts the models of CNFs, exactly, with Ganak (the `pyganak` package):
the external counter of `hexcert recount`, which starts it and talks to it
through a pipe.

Input (stdin): DIMACS formulas one after another, each an optional
`c p show ... 0` line (the variables counted over; others are projected
away), a `p cnf V C` line, then its C clauses, one a line.
Output (stdout): first `pyganak VERSION`, then for each formula, as soon as
it is counted, one line `COUNT SECONDS` (the count in decimal, exact).
A malformed formula ends the run with a one-line error on stderr, exit 2.

Install: pip install pyganak
"""

import os
import sys
import time

import pyganak


def formulas(lines):
    """Yields (vars, show, clauses) for each formula of `lines`."""
    show = None
    for line in lines:
        line = line.strip()
        head = line.split()
        if not head:
            continue
        if head[:3] == ["c", "p", "show"]:
            show = [int(w) for w in head[3:] if w != "0"]
            continue
        if head[:2] != ["p", "cnf"] or len(head) != 4:
            raise ValueError(f"expected a `p cnf V C` line, read {line[:60]!r}")
        nvars, nclauses = int(head[2]), int(head[3])
        clauses = []
        while len(clauses) < nclauses:
            line = next(lines, None)
            if line is None:
                raise ValueError(f"a formula ends after {len(clauses)} of {nclauses} clauses")
            words = line.split()
            if words and words[0] != "c":
                literals = [int(w) for w in words]
                if literals[-1] != 0:
                    raise ValueError(f"a clause does not end with 0: {line.strip()[:60]!r}")
                clauses.append(literals[:-1])
        yield nvars, show, clauses
        show = None


def main():
    # Ganak writes progress lines to the process's stdout: they go to stderr,
    # and the answers to a copy of the pipe hexcert reads.
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    print(f"pyganak {pyganak.__version__}", file=answers, flush=True)
    try:
        for nvars, show, clauses in formulas(iter(sys.stdin)):
            started = time.monotonic()
            counter = pyganak.Counter()
            counter.new_vars(nvars)
            counter.add_clauses(clauses)
            if show:
                counter.set_sampling_set(show)
            count = counter.count()
            print(f"{count} {time.monotonic() - started:.6f}", file=answers, flush=True)
    except ValueError as why:
        print(f"ganak-count: {why}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
