"""Charts as plain SVG drawn on the server; every label is escaped. The page prints the
numbers beside each chart, so the SVG carries a title and no data of its own."""
from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from sideapp.annotation.statistics import Share

WIDTH, LABEL, ROW = 560, 120, 26
COLOURS = ["#14866d", "#ac6600", "#d33", "#72777d"]


def _frame(title: str, height: int, body: list[str]) -> SafeString:
    return mark_safe(
        f'<svg class="chart" role="img" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>{"".join(body)}</svg>')


def share_bars(title: str, rows: list[tuple[str, Share]], *, reference: float | None = 0.5) -> SafeString:
    """One bar per row for a share, with its 95% interval as a whisker."""
    span = WIDTH - LABEL - 60
    height = ROW * len(rows) + 24
    body = []
    for n, (label, share) in enumerate(rows):
        y = 8 + n * ROW
        body.append(f'<text x="{LABEL - 6}" y="{y + 14}" text-anchor="end" font-size="12">{escape(label)}</text>')
        if share.value is None:
            body.append(f'<text x="{LABEL + 4}" y="{y + 14}" font-size="12" fill="#72777d">no votes</text>')
            continue
        body.append(f'<rect x="{LABEL}" y="{y + 3}" width="{share.value * span:.1f}" height="14" fill="#36c"/>')
        lo, hi = share.interval
        body.append(f'<line x1="{LABEL + lo * span:.1f}" x2="{LABEL + hi * span:.1f}" y1="{y + 10}" y2="{y + 10}" '
                    'stroke="#202122" stroke-width="2"/>')
        body.append(f'<text x="{LABEL + span + 6}" y="{y + 14}" font-size="12">{share.value:.0%}</text>')
    if reference is not None:
        x = LABEL + reference * span
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="4" y2="{height - 16}" stroke="#72777d" stroke-dasharray="3 3"/>')
    body.append(f'<text x="{LABEL}" y="{height - 4}" font-size="11" fill="#54595d">0</text>'
                f'<text x="{LABEL + span}" y="{height - 4}" font-size="11" text-anchor="end" fill="#54595d">100%</text>')
    return _frame(title, height, body)


def stacked_bars(title: str, rows: list[tuple[str, list[int]]], names: list[str]) -> SafeString:
    """One bar per row split into its categories' shares, with a legend."""
    span = WIDTH - LABEL - 20
    height = ROW * len(rows) + 30
    body = []
    for n, (label, counts) in enumerate(rows):
        y, x, total = 8 + n * ROW, float(LABEL), sum(counts) or 1
        body.append(f'<text x="{LABEL - 6}" y="{y + 14}" text-anchor="end" font-size="12">{escape(label)}</text>')
        for count, colour in zip(counts, COLOURS):
            w = count / total * span
            body.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="14" fill="{colour}"/>')
            x += w
    for n, (name, colour) in enumerate(zip(names, COLOURS)):
        x = LABEL + n * 110
        body.append(f'<rect x="{x}" y="{height - 14}" width="10" height="10" fill="{colour}"/>'
                    f'<text x="{x + 14}" y="{height - 5}" font-size="11">{escape(name)}</text>')
    return _frame(title, height, body)
