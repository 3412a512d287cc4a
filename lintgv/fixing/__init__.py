"""`lintgv fix`: settle each file's fixes with a proof per round, then write atomically.

settle.py       one text → fixed text, round after round, each round proved
groups.py       changes across files (a unique-name copy → a NameSupply member), proved as one
files.py        bytes on disk ↔ text, and atomic writes that keep the file's format
run.py          paths → checked, settled and written files (no printing)
file_fix.py     one file's settle task, run in a worker process, and its write
supply_stage.py stage three of --unsafe: supply parameters threaded across the project
summary.py      a run → the diff and the summary `lintgv fix` prints
"""

# Here rather than in settle.py: the CLI reads it for --help without importing libcst.
MAX_ROUNDS = 10
