"""A text printer that names its temporaries itself."""


class TextPrinter:
    def __init__(self):
        self.name_alloc_map = {}

    def get_unique_name(self, prefix):
        name = prefix
        while name in self.name_alloc_map:
            self.name_alloc_map[prefix] += 1
            name = prefix + str(self.name_alloc_map[prefix])
        self.name_alloc_map.setdefault(name, 0)
        return name

    def print_var(self, var):
        return "%" + self.get_unique_name(var.name_hint)
