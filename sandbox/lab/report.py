"""``report.html``.

One self-contained file (plots embedded as data URIs, no script, no network needed to open it) with the scenario, the
variants and their patches, the seeds to reproduce any run, the summary tables, the paired differences, the scale
factors, the solve and every plot.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from typing import Any

from .summary import differences_table, scale_table, solve_lines, summary_table

__all__ = ["REPORT_FILE", "report_html"]

REPORT_FILE = "report.html"
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #1d1f23; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f1f3; } pre { background: #f6f7f9; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.4em 0; } .note { color: #555; font-size: 0.9em; }
"""


def _esc(value: object) -> str:
    return html.escape(str(value))


def _html_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{_esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _pre(text: str) -> str:
    return f"<pre>{_esc(text)}</pre>" if text.strip() else "<p class='note'>none</p>"


def report_html(data: Mapping[str, Any], plots: Mapping[str, bytes]) -> str:
    """The report of a lab from its summary data and its plots (file name -> PNG bytes)."""
    from sandbox.report import drawn_for_a_file

    with drawn_for_a_file():  # the report's tables are one line a row, whatever the terminal's width
        return _report_html(data, plots)


def _report_html(data: Mapping[str, Any], plots: Mapping[str, bytes]) -> str:
    plan = data["plan"]
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Lab: {_esc(data['scenario'])}"
             f"</title><style>{_STYLE}</style></head><body>",
             f"<h1>Lab report: {_esc(data['scenario'])}</h1>",
             f"<p>{data['runs_done']:,} runs; models {_esc(', '.join(data['models']))}; seed {data['seed']}; "
             f"{data['jobs']} worker(s); {data['elapsed_seconds']:.1f} s"
             + ("; <b>interrupted</b>" if data["interrupted"] else "")
             + (f"; <b>stopped</b>: {_esc(data['stopped'])}" if data.get("stopped") else "")
             + ("; stopped early at the target error" if data["stopped_early"] else "") + ".</p>",
             "<h2>Scenario</h2>",
             _html_table(["scenario", "teams", "runs per variant and model", "chunk", "target error"],
                         [[data["scenario"], ", ".join(data["teams"]), plan["runs"], plan["chunk"],
                           plan["target_error"] if plan["target_error"] is not None else "-"]]),
             "<h2>Variants and their patches</h2>"]
    variant_rows = []
    for name, patches in data["variants"].items():
        shown = "; ".join(f"{k} = {v}" for k, v in patches) or "unpatched"
        role = "baseline" if name == data["baseline"] else ("scale point" if name.startswith("scale:")
                                                           else "solver probe" if name.startswith("solve:")
                                                           else "variant")
        variant_rows.append([name, role, shown])
    parts.append(_html_table(["variant", "role", "patches"], variant_rows))
    parts += ["<h2>Reproducing a run</h2>",
              "<p>Every variant's run <i>i</i> uses the same seed and streams (common random numbers): the root "
              f"seed {data['seed']} and the run index <i>i</i>. In Python:</p>",
              _pre(f"from sandbox.lab import world_of\nworld = world_of({data['scenario']!r}, {data['seed']}, "
                   "model, i, patches" + _engine_argument(data) + ")   # patches: the variant's, as listed above"
                   "\noutcome = world.run()"),
              "<h2>Summary</h2>", _pre(summary_table(dict(data)))]
    if data["differences"]:
        parts += ["<h2>Paired differences to the baseline</h2>",
                  "<p class='note'>Each variant's win rate minus the baseline's over the same runs (Newcombe's "
                  "paired interval); 'narrower' is how much narrower it is than the unpaired interval two "
                  "independent labs would give.</p>", _pre(differences_table(dict(data)))]
    if data["scale_factors"]:
        parts += ["<h2>Scale factors</h2>",
                  "<p class='note'>The change per unit of each parameter, by paired central differences "
                  "(forward from the baseline where the value below is not valid content), ranked.</p>",
                  _pre(scale_table(dict(data)))]
    if data.get("solve"):
        parts += ["<h2>Solve</h2>", f"<p class='note'>{_esc(data['solve']['method'])}.</p>",
                  _pre("\n".join(solve_lines(dict(data))))]
    if data["notes"]:
        parts += ["<h2>Notes</h2>", _pre("\n".join(data["notes"]))]
    parts.append("<h2>Plots</h2>")
    for name, png in plots.items():
        encoded = base64.b64encode(png).decode("ascii")
        parts.append(f"<figure><img alt='{_esc(name)}' src='data:image/png;base64,{encoded}'>"
                     f"<figcaption class='note'>{_esc(name)}</figcaption></figure>")
    parts.append("<h2>Files</h2>" + _html_table(["file"], [[f] for f in data["files"]]))
    parts.append("</body></html>\n")
    return "".join(parts)


def _engine_argument(data: Mapping[str, Any]) -> str:
    """``world_of``'s engine argument for a lab on another engine than its default (its runs are that engine's)."""
    from sandbox.engines import DEFAULT_ENGINE

    engine = data.get("plan", {}).get("engine", DEFAULT_ENGINE)
    return "" if engine == DEFAULT_ENGINE else f", engine={engine!r}"
