# Generated from op definitions; excluded by `extend-exclude` in lintgv.toml.
from tvm import relay

ADD = relay.GlobalVar("add")
