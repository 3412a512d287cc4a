from tvm import relay


def test_lift_keeps_name():
    gvar = relay.GlobalVar("main")
    assert gvar.name_hint == "main"
