# What the type checker sees of libcst_lazy.py: libcst's public names.
from libcst import *  # noqa: F403
