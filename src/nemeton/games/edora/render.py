"""Text rendering of an Edora view (placeholder, replaced below)."""


def render(view) -> str:
    return str(view.get("round"))
