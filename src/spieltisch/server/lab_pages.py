"""The Lab page of ``spieltisch serve``: the designer's reports made on this machine.

``GET /lab`` lists the reports ``spieltisch lab`` wrote (``spieltisch.lab.index``),
newest first; ``GET /lab/{id}`` serves one report's HTML file as it is. A report is
found by the id of its listed path, so a browser can never name a file of its own.
"""

from __future__ import annotations

import html
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from ..lab import index

#: reports are self-contained: inline styles and SVG, nothing to load, no script to run
REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lab reports</title><style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em;
  padding: 0 1em; color: #1d1d1f; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ text-align: left; padding: 0.35em 0.6em; border-bottom: 1px solid #ddd; }}
.empty {{ color: #555; }} code {{ background: #f2f2f2; padding: 0.1em 0.3em; }}
</style></head><body><main><h1>Lab reports</h1>
<p>Reports made with <code>spieltisch lab</code> on this machine, newest first.</p>
{body}</main></body></html>"""


def lab_routes(index_file: Path | None = None) -> list[BaseRoute]:
    """The Lab page's routes; ``index_file`` replaces the machine's list (tests)."""

    async def lab_list(request: Request) -> Response:
        reports = index.entries(index_file)
        if not reports:
            body = ("<p class='empty'>No reports yet: make one with "
                    "<code>spieltisch lab GAME --out report.html</code>.</p>")
        else:
            e = html.escape
            rows = "".join(
                f"<tr><td><a href='/lab/{r.id}'>{e(r.title)}</a></td><td>{e(r.game)}</td>"
                f"<td>{e(', '.join(r.variants))}</td><td>{r.games}</td>"
                f"<td>{e(r.created.replace('T', ' '))}</td></tr>" for r in reports)
            body = ("<table><thead><tr><th>report</th><th>game</th><th>variants</th>"
                    f"<th>games</th><th>made</th></tr></thead><tbody>{rows}</tbody></table>")
        return HTMLResponse(PAGE.format(body=body), headers={"cache-control": "no-cache"})

    async def lab_report(request: Request) -> Response:
        found = index.find(request.path_params["report_id"], index_file)
        if found is None or Path(found.path).suffix.lower() not in (".html", ".htm"):
            return HTMLResponse("<!doctype html><title>No such report</title>"
                                "<p>No such report. <a href='/lab'>All reports</a></p>",
                                status_code=404)
        return FileResponse(found.path, media_type="text/html; charset=utf-8",
                            headers={"content-security-policy": REPORT_POLICY,
                                     "cache-control": "no-cache"})

    return [Route("/lab", lab_list), Route("/lab/{report_id}", lab_report)]


__all__ = ["lab_routes"]
