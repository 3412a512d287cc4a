"""One rule per module, named <code>_<rule_name>; registry.py finds them all."""
