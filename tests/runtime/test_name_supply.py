"""NameSupply against TVM's own test cases (tests/python/relay/test_name_supply.py,
tests/cpp/name_supply_test.cc, tests/python/ir/test_name_supply.py and
test_unique_name_supply.py at the release tags), rewritten, plus each release's quirks."""

import pytest

from lintgv.runtime import (
    CheckFailed,
    NameSupply,
    NamingPolicy,
    UniqueNameSupply,
    UnsupportedVersion,
    next_name,
)

EVERY_LINE = ["0.10", "0.16", "0.24", "0.25", "0.26"]


def primed(version: str) -> NameSupply:
    supply = NameSupply("prefix", tvm_version=version)
    supply.fresh_name("test")
    return supply


@pytest.mark.parametrize("version", EVERY_LINE)
def test_reserved_name_is_contained_and_renamed(version: str) -> None:
    supply = NameSupply("prefix", tvm_version=version)
    supply.reserve_name("test")
    assert supply.contains_name("test")
    assert supply.fresh_name("test") == "prefix_test_1"
    assert supply.contains_name("test_1")
    assert not supply.contains_name("test_1", False)
    assert not supply.contains_name("test_2")


@pytest.mark.parametrize("version", EVERY_LINE)
def test_second_fresh_name_gets_suffix_one(version: str) -> None:
    assert primed(version).fresh_name("test") == "prefix_test_1"


@pytest.mark.parametrize("version", EVERY_LINE)
def test_counter_skips_names_already_taken(version: str) -> None:
    supply = primed(version)
    got = [supply.fresh_name(n) for n in ("name_2", "name", "name", "name")]
    assert got == ["prefix_name_2", "prefix_name", "prefix_name_1", "prefix_name_3"]


@pytest.mark.parametrize("version", EVERY_LINE)
def test_contains_only_names_handed_out(version: str) -> None:
    supply = primed(version)
    assert supply.contains_name("test")
    assert not supply.contains_name("test_1")


@pytest.mark.parametrize("version", EVERY_LINE)
def test_reserve_with_and_without_prefix(version: str) -> None:
    supply = primed(version)
    supply.reserve_name("otherTest", False)
    assert supply.contains_name("otherTest", False)
    assert not supply.contains_name("otherTest")
    assert supply.reserve_name("otherTest") == "prefix_otherTest"
    assert supply.contains_name("prefix_otherTest", False)
    assert supply.contains_name("otherTest")


def test_dots_become_underscores_in_fresh_names_only() -> None:
    supply = NameSupply("", tvm_version="0.10")
    assert supply.fresh_name("fused.add") == "fused_add"
    assert supply.fresh_name("fused_add") == "fused_add_1"
    assert supply.reserve_name("a.b") == "a.b"
    assert supply.contains_name("a.b")
    assert not supply.contains_name("a_b")


def test_empty_prefix_adds_no_underscore_and_add_prefix_false_skips_it() -> None:
    assert NameSupply("").fresh_name("x") == "x"
    assert NameSupply("p").fresh_name("x", add_prefix=False) == "x"
    assert NameSupply("p").fresh_name("x") == "p_x"


def test_counters_are_kept_per_base_name() -> None:
    supply = NameSupply("")
    assert [supply.fresh_name(n) for n in ("a", "b", "a", "b", "a")] == [
        "a",
        "b",
        "a_1",
        "b_1",
        "a_2",
    ]


def test_reserved_numbered_name_is_skipped_and_renumbered() -> None:
    supply = NameSupply("")
    supply.reserve_name("func_1")
    assert [supply.fresh_name("func") for _ in range(2)] == ["func", "func_2"]
    assert supply.fresh_name("func_1") == "func_1_1"


def test_reserve_resets_the_counter_visible_without_underscore() -> None:
    kept, reset = NameSupply("", tvm_version="0.16"), NameSupply("", tvm_version="0.16")
    for supply in (kept, reset):
        assert [supply.fresh_name("x") for _ in range(3)] == ["x", "x_1", "x_2"]
    reset.reserve_name("x")
    assert kept.fresh_name("x", add_underscore=False) == "x3"
    assert reset.fresh_name("x", add_underscore=False) == "x1"


def test_add_underscore_needs_016() -> None:
    with pytest.raises(UnsupportedVersion, match="add_underscore"):
        NameSupply("", tvm_version="0.15").fresh_name("x", add_underscore=False)
    supply = NameSupply("", tvm_version="0.16")
    assert supply.fresh_name("lv") == "lv"
    assert supply.fresh_name("lv", add_underscore=False) == "lv1"


@pytest.mark.parametrize(
    ("version", "bare", "prefixed"),
    [
        ("0.10", ["", "_1"], ["prefix_", "prefix__1"]),
        ("0.23", ["", "_1"], ["prefix_", "prefix__1"]),
        ("0.24", ["v", "v_1"], ["prefix_v", "prefix_v_1"]),
        ("0.26", ["v", "v_1"], ["prefix_v", "prefix_v_1"]),
    ],
)
def test_empty_name_per_release(version: str, bare: list[str], prefixed: list[str]) -> None:
    plain = NameSupply("", tvm_version=version)
    assert [plain.fresh_name("", add_prefix=False) for _ in range(2)] == bare
    with_prefix = NameSupply("prefix", tvm_version=version)
    assert [with_prefix.fresh_name("") for _ in range(2)] == prefixed


def test_seeded_supply_016_records_stems_and_largest_number() -> None:
    supply = NameSupply.from_names(["lv0", "lv12", "lv3", "gv", "x007"], tvm_version="0.16")
    assert not supply.contains_name("lv12")
    assert supply.contains_name("lv")
    assert supply.fresh_name("lv", add_underscore=False) == "lv13"
    assert supply.fresh_name("x", add_underscore=False) == "x8"
    assert supply.fresh_name("gv") == "gv_1"


@pytest.mark.parametrize("name", ["_x", "123", "", "x99999999999"])
def test_seeded_supply_016_rejects_what_tvm_rejects(name: str) -> None:
    with pytest.raises(CheckFailed, match="Invalid variable name"):
        NameSupply.from_names([name], tvm_version="0.24")


def test_seeded_supply_025_reserves_each_name() -> None:
    supply = NameSupply.from_names(["lv12", "main"], tvm_version="0.25")
    assert supply.contains_name("lv12")
    assert supply.fresh_name("lv", add_underscore=False) == "lv"
    assert supply.fresh_name("main") == "main_1"


def test_seeded_supply_needs_016() -> None:
    with pytest.raises(UnsupportedVersion, match=r"0\.16"):
        NameSupply.from_names(["a"], tvm_version="0.15")


def test_unique_name_supply_from_025_only() -> None:
    supply = UniqueNameSupply("", tvm_version="0.26")
    assert [supply.fresh_name("", add_prefix=False) for _ in range(2)] == ["v", "v_1"]
    with pytest.raises(UnsupportedVersion, match="NameSupply"):
        UniqueNameSupply("", tvm_version="0.24")


@pytest.mark.parametrize("version", ["0.9", "1.0", "016", "", "latest"])
def test_versions_tvm_never_had_are_rejected(version: str) -> None:
    with pytest.raises(UnsupportedVersion):
        NameSupply("", tvm_version=version)


def test_non_string_names_are_rejected() -> None:
    with pytest.raises(TypeError, match="name must be a str"):
        NameSupply("").fresh_name(None)  # type: ignore[arg-type]  # the check under test


def test_rfc0077_example() -> None:
    assert next_name("func12", {"func12", "func13", "func4"}) == "func14"
    assert next_name("func", {"func"}) == "func1"
    assert next_name("free", {"func"}) == "free"


def test_rfc0077_policy_is_off_by_default() -> None:
    assert NameSupply("").policy is NamingPolicy.TVM
    supply = NameSupply("", policy=NamingPolicy.RFC0077)
    supply.reserve_name("func12")
    supply.reserve_name("func13")
    assert [supply.fresh_name(n) for n in ("func12", "func", "a.b", "a.b")] == [
        "func14",
        "func",
        "a_b",
        "a_b1",
    ]
