"""The scans behind GV101: GlobalVar constructions found, with their fixes planned."""
