"""GlobalVarSupply against TVM's own test cases (relay/test_name_supply.py and
cpp/name_supply_test.cc at 0.10 .. 0.24), rewritten, plus the module-prefix rules."""

import pytest

from lintgv.runtime import (
    CheckFailed,
    GlobalVar,
    GlobalVarSupply,
    IRModule,
    NameSupply,
    UnsupportedVersion,
)

LINES = ["0.10", "0.16", "0.24"]


@pytest.mark.parametrize("version", LINES)
def test_supply_from_none_returns_reserved_global(version: str) -> None:
    supply = GlobalVarSupply(tvm_version=version)
    test = GlobalVar("test")
    supply.reserve_global(test)
    assert supply.unique_global_for("test") is test
    assert supply.fresh_global("test") is not test


@pytest.mark.parametrize("version", LINES)
def test_supply_from_name_supply_prefixes(version: str) -> None:
    supply = GlobalVarSupply(NameSupply("prefix", tvm_version=version), tvm_version=version)
    test = GlobalVar("test")
    supply.reserve_global(test)
    assert supply.unique_global_for("test", False) is test
    other = supply.unique_global_for("test")
    assert other is not test
    assert other.name_hint == "prefix_test"


@pytest.mark.parametrize("version", LINES)
def test_supply_from_module_reserves_its_globals(version: str) -> None:
    test = GlobalVar("test")
    supply = GlobalVarSupply(IRModule({test: "f"}), tvm_version=version)
    second = supply.fresh_global("test", False)
    assert supply.unique_global_for("test", False) is test
    assert supply.unique_global_for("test") is not test
    assert second is not test
    assert second.name_hint == "test_1"


def test_fresh_globals_are_numbered() -> None:
    supply = GlobalVarSupply(NameSupply("", tvm_version="0.16"), tvm_version="0.16")
    supply.fresh_global("test")
    first, second = supply.fresh_global("test"), supply.fresh_global("test")
    assert (first.name_hint, second.name_hint) == ("test_1", "test_2")


def test_unique_global_for_is_cached() -> None:
    supply = GlobalVarSupply(tvm_version="0.16")
    first = supply.unique_global_for("someName")
    assert supply.unique_global_for("someName") is first
    assert first.name_hint == "someName"


def test_reserved_global_is_returned_and_fresh_one_differs() -> None:
    supply = GlobalVarSupply(tvm_version="0.16")
    supply.fresh_global("test")
    var = GlobalVar("someName")
    supply.reserve_global(var)
    assert supply.unique_global_for("someName") is var
    assert supply.fresh_global("someName").name_hint == "someName_1"


def test_module_without_mod_name_prefixes_tvmgen_default() -> None:
    supply = GlobalVarSupply(IRModule([GlobalVar("main")]), tvm_version="0.16")
    assert supply.fresh_global("f").name_hint == "tvmgen_default_f"
    assert supply.fresh_global("main", add_prefix=False).name_hint == "main_1"


def test_prefix_comes_from_first_module() -> None:
    first = IRModule([GlobalVar("a")], attrs={"mod_name": "mynet"})
    second = IRModule([GlobalVar("b")], attrs={"mod_name": "other"})
    supply = GlobalVarSupply([first, second], tvm_version="0.16")
    assert supply.fresh_global("f.g").name_hint == "mynet_f_g"
    assert supply.fresh_global("b", False).name_hint == "b_1"


def test_empty_module_list_has_no_prefix() -> None:
    assert GlobalVarSupply([], tvm_version="0.16").fresh_global("f").name_hint == "f"


def test_same_name_in_two_modules_is_a_conflict() -> None:
    modules = [IRModule([GlobalVar("main")]), IRModule([GlobalVar("main")])]
    with pytest.raises(CheckFailed, match="conflicts by name"):
        GlobalVarSupply(modules, tvm_version="0.16")


def test_conflict_can_be_allowed() -> None:
    supply = GlobalVarSupply(tvm_version="0.16")
    supply.reserve_global(GlobalVar("main"))
    replacement = GlobalVar("main")
    supply.reserve_global(replacement, allow_conflict=True)
    assert supply.unique_global_for("main") is replacement


def test_duplicate_names_in_one_module_are_rejected() -> None:
    with pytest.raises(CheckFailed, match="Duplicate global function name main"):
        IRModule([GlobalVar("main"), GlobalVar("main")])


@pytest.mark.parametrize("version", ["0.25", "0.26"])
def test_global_var_supply_is_gone_from_025(version: str) -> None:
    with pytest.raises(UnsupportedVersion, match=r"removed in TVM 0\.25"):
        GlobalVarSupply(tvm_version=version)


def test_name_supply_of_another_release_is_refused() -> None:
    with pytest.raises(UnsupportedVersion, match="same tvm_version"):
        GlobalVarSupply(NameSupply("", tvm_version="0.10"), tvm_version="0.16")
