"""Find catalog names (GPUs, servers, model presets) in free text, in English or Chinese.

"8×H100", "8卡A100", "64 H100s", "H100 PCIe", "Llama-2-70B": names are compared without case or
separators, the longest name wins ("H100 PCIe" over "H100"), and a name must not run into a longer
token ("A1000" is not an "A10"). Positions refer to the original text, so a caller can read the
count written next to a name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from knowledge.catalog import NAME_SEPARATORS, Catalog, normalize_name

_ALNUM = re.compile(r"[a-z0-9]")


@dataclass(frozen=True)
class Mention:
    group: str  # "accelerators", "servers" or "models"
    id: str
    start: int  # offsets in the original text
    end: int

    @property
    def doc_id(self) -> str:
        return f"catalog/{self.group}/{self.id}"


class NameIndex:
    """Every name and alias of the catalog's accelerators, servers and model presets."""

    def __init__(self, catalog: Catalog) -> None:
        table: dict[str, tuple[str, str]] = {}
        for acc in catalog.accelerators:
            for name in acc.names:
                table.setdefault(normalize_name(name), ("accelerators", acc.id))
        for server in catalog.servers:
            for name in (server.id, server.name, *server.aliases):
                table.setdefault(normalize_name(name), ("servers", server.id))
        for model in catalog.models:
            for name in model.names:
                table.setdefault(normalize_name(name), ("models", model.id))
        self.accelerator_ids = frozenset(acc.id for acc in catalog.accelerators)
        # presets by size: "70B (llama3 arch)" is the Llama 3 70B preset, named by its family and size apart
        self.model_sizes: dict[str, float] = {model.id: model.params_b for model in catalog.models}
        # a card's memory variants: "a 40GB A100" is the A100 40GB, whatever the bare name defaults to
        self.memory_variants: dict[str, dict[float, str]] = {}
        for acc in catalog.accelerators:
            self.memory_variants.setdefault(_family(acc.id), {})[acc.memory_gb] = acc.id
        # cloud instance types and the accelerators they hold: "p5.48xlarge at $55/hr" is 8 H100s' hour
        self.instances: dict[str, tuple[str, int]] = {
            price.instance_type.lower(): (price.accelerator_id, price.accelerators_per_instance)
            for price in catalog.cloud_prices
            if re.fullmatch(r"[A-Za-z][\w-]*\.\w+|Standard_\w+|[a-z]\d\w*-\w+-\w+", price.instance_type)
        }
        for acc in catalog.accelerators:
            self.instances.update({name.lower(): (acc.id, n) for name, n in acc.instances.items()})
        # "p5 instances", "trn2 vs p5": an AWS family named without its size holds the same cards
        for name, shape in list(self.instances.items()):
            if family := re.fullmatch(r"([a-z]+\d+[a-z]*)\.\d*xlarge", name):
                self.instances.setdefault(family.group(1), shape)
        self.instance_pattern = (
            re.compile(
                # ASCII edges, not \b: "trn2还是p5" has no word boundary between "2" and "还"
                "|".join(
                    rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])"
                    for name in sorted(self.instances, key=len, reverse=True)
                ),
                re.IGNORECASE,
            )
            if self.instances
            else None
        )
        # a named mixture-of-experts model's active size, which people quote as if it were its size
        self.moe_active_b = {m.id: m.active_params_b for m in catalog.models if m.active_params_b}
        self.model_params_b = {m.id: m.params_b for m in catalog.models}
        for alias, target in list(table.items()):
            # "A100 40G", "H20 96G": people drop the B of GB
            table.setdefault(re.sub(r"(\d)gb", r"\1g", alias), target)
        self._last: tuple[str, tuple[Mention, ...]] | None = None
        self._aliases = sorted(
            ((alias, target) for alias, target in table.items() if len(alias) >= 2),
            key=lambda item: (-len(item[0]), item[0]),
        )

    def find(self, text: str) -> list[Mention]:
        """Mentions in order of appearance; overlapping shorter names are dropped.

        The last answer is kept: a chat turn asks about the same message twice (slot filling, then the
        retriever's catalog ranking), and the scan over every alias is the costly part.
        """
        last = self._last
        if last is not None and last[0] == text:
            return list(last[1])
        hits = self._find(text)
        self._last = (text, tuple(hits))  # one assignment, so threads never see half of it
        return hits

    def _find(self, text: str) -> list[Mention]:
        folded, positions, boundaries = _fold(text)
        taken = [False] * len(folded)
        hits: list[Mention] = []
        for alias, (group, id_) in self._aliases:
            start = folded.find(alias)
            while start != -1:
                end = start + len(alias)
                if (
                    _bounded(folded, boundaries, start, end)
                    and not _measured(folded, boundaries, end, text, positions)
                    and not _article(text, positions, boundaries, start)
                    and not any(taken[start:end])
                ):
                    taken[start:end] = [True] * (end - start)
                    hits.append(Mention(group, id_, positions[start], positions[end - 1] + 1))
                start = folded.find(alias, start + 1)
        return sorted(hits, key=lambda m: m.start)

    def doc_ids(self, text: str) -> list[str]:
        """Catalog passage ids named in ``text``, first mention first, without repeats."""
        return list(dict.fromkeys(m.doc_id for m in self.find(text)))


def _family(accelerator_id: str) -> str:
    """An accelerator's id without its memory size: "a100-40gb-sxm" and "a100-80gb-sxm" are one family."""
    return re.sub(r"-\d+gb(?=-|$)", "", accelerator_id)


def variant(names: NameIndex, accelerator_id: str, memory_gb: float) -> str | None:
    """The member of ``accelerator_id``'s family with ``memory_gb`` of memory, if the catalog has one."""
    return names.memory_variants.get(_family(accelerator_id), {}).get(memory_gb)


def _fold(text: str) -> tuple[str, list[int], set[int]]:
    """Lower-cased text without separators, each kept character's original offset, and where separators were."""
    folded: list[str] = []
    positions: list[int] = []
    boundaries: set[int] = set()
    offset = 0
    for match in NAME_SEPARATORS.finditer(text + " "):
        for i in range(offset, match.start()):
            folded.append(text[i].lower())
            positions.append(i)
        boundaries.add(len(folded))
        offset = match.end()
    return "".join(folded), positions, boundaries


_UNIT = re.compile(r"kwh|kw|mw|w|gb|tb|pb|g|t|%")


def _measured(text: str, boundaries: set[int], end: int, original: str, positions: list[int]) -> bool:
    """Whether a unit follows the name ("a 40 kW rack", "an 80 GB card"): then it was a quantity, not a name.
    ``text`` is the folded text, ``original`` the message it came from (``positions`` maps one to the other)."""
    unit = _UNIT.match(text, end)
    if unit is None:
        return False
    after = unit.end()
    if unit.group(0) == "w" and original[positions[unit.start()] + 1 : positions[unit.start()] + 2] == "/":
        return False  # "8x h100 w/ fsdp": "with", not watts
    return after == len(text) or after in boundaries or not _ALNUM.match(text[after])


def _article(text: str, positions: list[int], boundaries: set[int], start: int) -> bool:
    """Whether a name begins with the article "a" before a number ("a 40-day run", "a 100 GPUs"): the A40
    and the A100 are written with a capital or without the space."""
    return text[positions[start]] == "a" and (start + 1) in boundaries


def _bounded(text: str, boundaries: set[int], start: int, end: int) -> bool:
    """A name must not be glued to a longer alphanumeric token (a trailing plural "s" is allowed)."""
    if start not in boundaries and start > 0:
        before = text[start - 1]
        glued_to_count = before == "x" and start >= 2 and text[start - 2].isdigit()  # "8xh100"
        if before.isdigit() or (before.isascii() and before.isalpha() and not glued_to_count):
            return False
    if end == len(text) or end in boundaries or not _ALNUM.match(text[end]):
        return True
    plural_end = end + 1
    return text[end] == "s" and (
        plural_end == len(text) or plural_end in boundaries or not _ALNUM.match(text[plural_end])
    )
