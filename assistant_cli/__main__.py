"""``python -m assistant_cli``: the same as the ``assist`` command."""

from assistant_cli.main import app

app(prog_name="assist")
