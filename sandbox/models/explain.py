"""``sandbox validate --explain``: the entries each point model derived, and their values, as tables."""

from __future__ import annotations

import io
from collections.abc import Mapping

from sandbox.models.derive import values_text
from sandbox.models.tables import Loaded

__all__ = ["derived_report"]


def derived_report(loaded: Mapping[str, Loaded], width: int = 120) -> str:
    """One table per model of the entries it derived, or a line saying it derived none.

    An entry is its key (``[weapons."kobold_spear.impale"]``) and its values, as they would be written in
    ``models/<model>.toml`` to tune them.

    Args:
        loaded: Model name -> its loaded tables.
        width: The width to draw the tables in.
    """
    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False, markup=False, soft_wrap=False)
    for name, tables in loaded.items():
        rows = [(f'[{table}."{key}"]' if "." in key else f"[{table}.{key}]", values_text(values))
                for table, entries in tables.derived.items() for key, values in sorted(entries.items())]
        if not rows:
            if tables.derives:
                console.print(f"{name}: nothing derived (models/{name}.toml has an entry for everything)")
            continue
        table = Table(title=f"{name}: {len(rows)} entr{'y' if len(rows) == 1 else 'ies'} derived by "
                            f"models/{name}.toml [derive]", title_justify="left", expand=False)
        table.add_column("entry", no_wrap=True)
        table.add_column("derived values (write them in the file to tune them)", overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table)
    return out.getvalue()
