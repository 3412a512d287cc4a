"""Holding: which of a project's texts hold a name, or match a pattern, remembered
across plans. After any sequence of changed texts and of questions, some of them given
up part way (a caller that stops at the first refusal), some about another list of
files or an equal one made anew, it answers as a search of every current text does."""

import re
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from lintgv.fixing.python_calls import Parses
from lintgv.holding import Holding

PATHS = [Path(f"pkg/{n}.py") for n in ("b", "a", "c", "d")]
OTHERS = [PATHS[2], Path("pkg/e.py"), PATHS[0]]
NAMES = ["make", "make_global", "lower"]
TEXTS = st.sampled_from(["", "make()", "make_global()", "lower(make)", "x = 1", None])
# Objects made once: a file may be given back a text object it held before (after being
# unreadable, say), which must be looked at again.
KEPT = ["".join(["make", "()"]), "".join(["x = ", "1"])]
# A step: a file given a new text (a new object, as a fix makes) or a kept one, or a
# question about a name, over one of two lists of files, read to the end or stopped after
# some answers.
STEPS = st.one_of(
    st.tuples(st.just("change"), st.sampled_from([*PATHS, *OTHERS]), TEXTS, st.just(None)),
    st.tuples(
        st.just("restore"), st.sampled_from([*PATHS, *OTHERS]), st.sampled_from(KEPT), st.just(None)
    ),
    st.tuples(
        st.sampled_from(["ask", "match"]),
        st.sampled_from(NAMES),
        st.none() | st.integers(0, 3),
        # The list a caller made anew for this plan (an equal one) as well as the same.
        st.sampled_from([PATHS, OTHERS]) | st.sampled_from([PATHS, OTHERS]).map(list),
    ),
)


# A text changed into one that matches where its last version did not, its needle in both.
@example(
    [
        ("match", "make", None, PATHS),
        ("change", PATHS[0], "make()", None),
        ("match", "make", None, list(PATHS)),
    ]
)
# A pattern asked about another list of files right after a match in the first: nothing
# known of the first list's files may answer for the other's.
@example(
    [
        ("change", PATHS[0], "make()", None),
        ("match", "make", None, PATHS),
        ("match", "make", None, list(PATHS)),
        ("match", "make", None, OTHERS),
    ]
)
@given(st.lists(STEPS, max_size=30))
def test_holding_answers_as_a_search_of_every_current_text(steps: list[tuple[Any, ...]]) -> None:
    texts: dict[Path, str | None] = dict.fromkeys([*PATHS, *OTHERS], "make_global()")
    holding = Holding()
    for kind, subject, value, paths in steps:
        if kind == "change":
            # Joined at run time: a new object even when the text is one seen before.
            texts[subject] = None if value is None else "".join([value, ""])
            continue
        if kind == "restore":
            texts[subject] = value
            continue
        if kind == "match":
            # A word, which only a text holding it can match.
            word = re.compile(rf"\b{subject}\b")
            matched = [
                (path, texts[path])
                for path in paths
                if texts[path] is None or word.search(texts[path])  # type: ignore[arg-type]
            ]
            if value is None:
                found = holding.matches(word, subject, paths, texts.get)
                assert list(found) == matched
            else:
                answers = holding.matches(word, subject, paths, texts.get)
                assert list(islice(answers, value)) == matched[:value]
            continue
        expected = [
            (path, texts[path])
            for path in paths
            if texts[path] is None or subject in texts[path]  # type: ignore[operator]
        ]
        answers = holding.search(subject, paths, texts.get)
        if value is None:
            assert list(answers) == expected
        else:
            assert list(islice(answers, value)) == expected[:value]


def test_a_file_unreadable_for_a_while_is_looked_at_again_when_it_comes_back() -> None:
    # The same object as before it could not be read: nothing else tells it changed.
    holding = Holding()
    path, text = Path("a.py"), "def make_global(): pass\n"
    paths, texts = [path], dict[Path, str | None]({path: text})
    list(holding.search("other", paths, texts.get))
    texts[path] = None
    assert list(holding.search("make_global", paths, texts.get)) == [(path, None)]
    texts[path] = text
    assert list(holding.search("make_global", paths, texts.get)) == [(path, text)]


def test_a_projects_python_files_are_answered_in_the_order_of_their_paths() -> None:
    modules = {path: path.stem for path in PATHS}
    found = Parses().naming("make", modules, lambda _: "make()")
    assert [path for path, _ in found] == sorted(PATHS, key=lambda p: p.as_posix())


class _Counted(str):
    """A text that counts the searches made in it."""

    searches = 0

    def __contains__(self, name: object) -> bool:
        _Counted.searches += 1
        return super().__contains__(name)  # type: ignore[operator]


def test_an_equal_list_of_files_made_anew_is_not_searched_again() -> None:
    # The multi-file planner makes its list of C++ files anew for every plan.
    texts = {path: _Counted(f"make() in {path}") for path in PATHS}
    holding = Holding()
    first = list(holding.search("make", list(PATHS), texts.get))
    searched = _Counted.searches
    assert list(holding.search("make", list(PATHS), texts.get)) == first
    assert _Counted.searches == searched
    # Another list of files is another project: its texts are searched.
    others = {**texts, **{path: _Counted("lower()") for path in OTHERS if path not in texts}}
    assert [p for p, _ in holding.search("make", OTHERS, others.get)] == [PATHS[2], PATHS[0]]
    assert _Counted.searches > searched


# Searches left part way and resumed later, between changes and other searches: a step
# changes a file, starts a search and takes some of its answers, resumes one, or asks
# for a whole search, which must answer as a search of every current text does.
INTERLEAVED = st.one_of(
    st.tuples(st.just("change"), st.sampled_from([*PATHS, *OTHERS]), TEXTS),
    st.tuples(
        st.sampled_from(["start", "start matches"]), st.sampled_from(NAMES), st.integers(0, 3)
    ),
    st.tuples(st.just("resume"), st.integers(0, 3), st.just(None)),
    st.tuples(st.just("ask"), st.sampled_from(NAMES), st.sampled_from([PATHS, OTHERS])),
)


# A search suspended on a text's old version finishes after another has read the new one.
@example(
    [
        ("start", "make", 1),
        ("change", PATHS[0], "lower()"),
        ("ask", "make", PATHS),
        ("resume", 0, None),
        ("ask", "make", PATHS),
    ]
)
@given(st.lists(INTERLEAVED, max_size=30))
def test_a_search_resumed_after_others_leaves_no_stale_answer(steps: list[tuple[Any, ...]]) -> None:
    texts: dict[Path, str | None] = dict.fromkeys([*PATHS, *OTHERS], "make()")
    holding = Holding()
    suspended: list[Iterator[tuple[Path, str | None]]] = []
    for kind, subject, value in steps:
        if kind == "change":
            texts[subject] = None if value is None else "".join([value, ""])
        elif kind.startswith("start"):
            # Reads the texts as they are now, whatever changes before it resumes.
            read = dict(texts).get
            search = (
                holding.matches(re.compile(subject), subject, list(PATHS), read)
                if kind == "start matches"
                else holding.search(subject, list(PATHS), read)
            )
            list(islice(search, value))
            suspended.append(search)
        elif kind == "resume" and suspended:
            list(suspended.pop(subject % len(suspended)))
        elif kind == "ask":
            expected = [
                (path, texts[path])
                for path in value
                if texts[path] is None or subject in texts[path]  # type: ignore[operator]
            ]
            assert list(holding.search(subject, value, texts.get)) == expected
            word = re.compile(rf"\b{subject}\b")
            matched = [
                path
                for path in value
                if texts[path] is not None and word.search(texts[path])  # type: ignore[arg-type]
            ]
            found = holding.matches(word, subject, value, texts.get)
            assert [path for path, text in found if text is not None] == matched
