"""Reading `git diff -U0` output: which new-side lines changed."""

from lintgv.diff_base import parse_diff

DIFF = """\
diff --git a/src/a.cc b/src/a.cc
index 1111111..2222222 100644
--- a/src/a.cc
+++ b/src/a.cc
@@ -3 +3 @@ void F() {
-  old();
+  new_call();
@@ -10,0 +11,2 @@ void G() {
+  one();
+  two();
@@ -20,3 +22,0 @@ void H() {
-  gone();
-  gone();
-  gone();
diff --git a/old.py b/old.py
deleted file mode 100644
--- a/old.py
+++ /dev/null
@@ -1,2 +0,0 @@
-x = 1
-y = 2
diff --git "a/with \\"quote\\".py" "b/with \\"quote\\".py"
--- "a/with \\"quote\\".py"
+++ "b/with \\"quote\\".py"
@@ -1 +1 @@
-a
+b
"""


def test_changed_and_added_lines_are_ranges_of_the_new_file() -> None:
    assert parse_diff(DIFF)["src/a.cc"] == [range(3, 4), range(11, 13)]


def test_pure_deletions_change_no_line() -> None:
    changed = parse_diff(DIFF)
    assert all(r for ranges in changed.values() for r in ranges)


def test_deleted_files_are_left_out() -> None:
    assert "old.py" not in parse_diff(DIFF) and "/dev/null" not in parse_diff(DIFF)


def test_quoted_file_names_are_unquoted() -> None:
    assert parse_diff(DIFF)['with "quote".py'] == [range(1, 2)]
