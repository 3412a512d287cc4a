from lintgv.model import Message, Severity
from lintgv.rules._base import ArtifactRule, RuleMeta, Session


class CopyNamesDiffer(ArtifactRule):
    """A unique-name copy that names differently from the configured release's NameSupply.

    ## Why it matters
    Replacing a private `GetUniqueName` copy (GV201) with a NameSupply is only a pure
    refactoring when both give the same names for the same requests. Where they differ
    (`x1 → x_1`), the rewrite renames functions: C symbols and anything that looks them up
    by name change between releases.

    ## Fix
    Decide which names are right. To keep the copy's names, keep the copy (suppress GV201
    with a reason); to move to the supply's names, apply the rewrite with
    `lintgv fix --unsafe` and update what refers to the old names. No automatic fix.
    """

    META = RuleMeta(
        code="GV511",
        name="copy-names-differ",
        severity=Severity.WARNING,
        message=Message(
            "unique-name copy names differently from NameSupply",
            "a NameSupply rewrite changes these names",
        ),
    )
    REPORTED_BY = "`lintgv validate-copies` (runs the tree's code, sandboxed)"
    EXAMPLE = Session(
        files=(
            (
                "src/codegen.cc",
                """\
#include <string>
#include <unordered_map>

class CodeGen {
 public:
  std::string GetUniqueName(std::string name) {
    auto it = name_count_.find(name);
    if (it == name_count_.end()) {
      name_count_[name] = 0;
      return name;
    }
    return name + std::to_string(++it->second);
  }

 private:
  std::unordered_map<std::string, int> name_count_;
};
""",
            ),
        ),
        args=("validate-copies", "src/"),
        prints=(
            "src/codegen.cc:6: CodeGen::GetUniqueName: names differ from NameSupply.fresh_name "
            "at 12 of 17: x1 → x_1, x2 → x_2, x_1 → x_1_1, x3 → x_3, conv2d1 → conv2d_1, "
            "conv2d_1 → conv2d_1_1, fused.add → fused_add, fused.add1 → fused_add_1, "
            'fused_add → fused_add_2, "" → v, 1 → v_1, a1 → a_1; it hands out a name twice '
            "(its callers record names)",
        ),
    )
