"""Hostile documents from the hardening probe (issue 15), shared by the engine's tests and the
abuse suite. Each is small; each once cost the server minutes or gigabytes."""


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """The 602-byte YAML of the report: each level is nine copies of the one before, so the last
    stands for 9**9 values."""
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        refs = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


def nested_yaml(levels: int, key: str = "tags") -> str:
    """A flow sequence `levels` deep under one key (< 1 KB at the 480 levels reported)."""
    return f"{key}: " + "[" * levels + "x" + "]" * levels + "\n"


def nested_json(levels: int) -> str:
    return "[" * levels + "]" * levels
