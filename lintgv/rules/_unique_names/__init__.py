"""What GV201, GV202 and GV203 share: the helper names, the shapes of a private copy of
"if the name is taken, append a counter" in each language, and the messages.

`names` holds the language-free parts; `cpp_shape` and `python_shape` find the copies in a
parsed file. A codemod can call the same functions to locate what it rewrites.
"""
