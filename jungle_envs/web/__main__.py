"""``python -m jungle_envs.web [--host H] [--port P]``: the browser table."""

from __future__ import annotations

import argparse
import sys

from jungle_envs.web import DEFAULT_HOST, DEFAULT_PORT, serve


def parser(prog: str = "python -m jungle_envs.web") -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog=prog, description="Play jungle_envs games and watch replays in the browser."
    )
    parse.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default: {DEFAULT_HOST}, this machine only)",
    )
    parse.add_argument("--port", type=int, default=DEFAULT_PORT, help="default: %(default)s")
    return parse


def main(argv: list[str] | None = None, prog: str = "python -m jungle_envs.web") -> int:
    args = parser(prog).parse_args(argv)
    if not 0 < args.port < 65536:
        parser(prog).error("--port must be 1 to 65535")
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print("the browser table needs the web extra: pip install 'jungle-envs[web]'",
              file=sys.stderr)  # fmt: skip
        return 2
    serve(args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
