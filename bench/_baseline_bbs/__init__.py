"""A frozen copy of the Beyond Baker Street advisor before issue 12's speed work (main at 441bccc).

Only ``bench/speed.py`` imports it, to play the old and the new advisor on the same seeds in the same run
(CPU seconds per game, win shares, identical decisions). ``advisor``, ``hat``, ``knowledge`` (its exact counts)
and ``injections`` are the old modules, with their imports pointed at each other; the rules, the board and the
observations are the project's own.
"""
