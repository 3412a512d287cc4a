"""What a unique-name helper is, for the GV2xx rules and the codemods that replace
helpers alike: the helper names, the shapes of a private copy of "if the name is taken,
append a counter" in each language, inline uniquing loops, the calls that reach a
helper, and the messages. Below the rules and the codemods, above parsing.

`names` holds the language-free parts; `cpp_shape` and `python_shape` find the copies in a
parsed file, `cpp_loops` and `python_loops` the inline loops, `cpp_calls` the calls.
`cpp_shape` judges a C++ function by `cpp_facts`, which draws its verdict from what
`cpp_body_walk` gathers in one pass over the body and from the name flow `cpp_name_flow`
follows.
"""
