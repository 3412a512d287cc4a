"""An example package in the style of a TVM-based compiler."""
