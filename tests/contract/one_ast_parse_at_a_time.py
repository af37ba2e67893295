"""Makes `ast.parse` take turns across threads in the contract fuzzer's virtual environment.

With two workers, schemathesis draws from Hypothesis in two threads, and Hypothesis parses
lambda sources to describe strategies. CPython 3.11's AST constructor keeps its recursion depth
in state the threads share, so two parses at once fail with `SystemError: AST constructor
recursion depth mismatch` (python/cpython#106905 and its neighbours), which schemathesis reports
as a runtime error of the operation being generated. `tests/contract/run` installs this module
with a `.pth` line, so it is imported at start-up; parsing is a tiny share of a run.
"""

import ast
import threading

_parse = ast.parse
_one_at_a_time = threading.Lock()


def _parse_in_turn(*args, **kwargs):
    with _one_at_a_time:
        return _parse(*args, **kwargs)


ast.parse = _parse_in_turn
