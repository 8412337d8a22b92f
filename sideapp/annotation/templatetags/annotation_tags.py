from django import template

register = template.Library()


@register.filter
def share(value) -> str:
    """A Share as "k / n = 53% (95% CI 41–65%)", or "– (no votes)"."""
    if value is None or not value.n:
        return "– (no votes)"
    lo, hi = value.interval
    return f"{value.k} / {value.n} = {value.value:.0%} (95% CI {lo:.0%}–{hi:.0%})"


@register.filter
def number(value, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{int(digits)}f}"
    return str(value)


@register.filter
def pvalue(value) -> str:
    if value is None:
        return "–"
    return f"{value:.2g}" if value >= 1e-4 else f"{value:.1e}"
