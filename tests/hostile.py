"""Hostile documents from the hardening probe (issue 15), shared by the engine's tests and the
abuse suite. Each is small; each once cost the server minutes or gigabytes."""

from hypothesis import strategies as st


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


def json_string_bomb(pairs: int) -> str:
    """Issue 34's JSON body: an unterminated string of backslash-quote pairs (2 bytes a pair),
    which a backtracking scan of strings reads again from every quote: quadratic."""
    return '"' + '\\"' * pairs


def byte_alias_bomb(text: int = 15_000, levels: int = 5, width: int = 10) -> str:
    """Issue 34's YAML: one long string, then `levels` lists of `width` aliases each of the
    level before. Few values (width * levels aliases) but text * width**levels bytes."""
    lines = [f'x: &l0 "{"x" * text}"']
    for level in range(1, levels + 1):
        refs = ", ".join([f"*l{level - 1}"] * width)
        lines.append(f"l{level}: &l{level} [{refs}]")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# A hypothesis strategy: YAML built to cost, for every input that reads YAML
# --------------------------------------------------------------------------------------------


@st.composite
def _alias_chain(draw: st.DrawFn) -> str:
    levels = draw(st.integers(2, 14))
    width = draw(st.integers(2, 12))
    leaf = draw(st.sampled_from(["lol", "{type: death}", "[1, 2]", "0" * 40]))
    return alias_bomb(levels, width).replace("lol", leaf)


@st.composite
def _nesting(draw: st.DrawFn) -> str:
    levels = draw(st.integers(30, 3000))
    opener, closer = draw(st.sampled_from([("[", "]"), ("{a: ", "}"), ("[{b: ", "}]")]))
    key = draw(st.sampled_from(["tags", "effects", "bad_stuff", "cards", "x"]))
    return f"{key}: " + opener * levels + "1" + closer * levels + "\n"


@st.composite
def _block_nesting(draw: st.DrawFn) -> str:
    levels = draw(st.integers(30, 400))
    return "".join(f"{' ' * i}k{i}:\n" for i in range(levels)) + " " * levels + "end\n"


@st.composite
def _huge_number(draw: st.DrawFn) -> str:
    digits = draw(st.integers(19, 6000))
    sign = draw(st.sampled_from(["", "-", "+"]))
    form = draw(st.sampled_from(["{}", "0x{}", "{}.5", "{}e999"]))
    number = sign + form.format("9" * digits)
    key = draw(st.sampled_from(["level", "treasures", "bonus", "copies", "gold", "amount"]))
    return f"name: Probe\ndeck: door\nkind: monster\n{key}: {number}\n"


@st.composite
def _self_reference(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(["a: &a [*a]\n", "a: &a {b: *a}\n", "x: &x [1, [2, *x]]\n"]))


def hostile_yaml() -> st.SearchStrategy[str]:
    """YAML documents of a few kilobytes at most that would cost minutes or gigabytes to a
    reader without limits: alias chains, deep flow and block nesting, huge numbers, values that
    hold themselves."""
    return st.one_of(
        _alias_chain(), _nesting(), _block_nesting(), _huge_number(), _self_reference()
    )
