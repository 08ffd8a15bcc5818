"""A benchmark's throwaway database and the settings it runs on, before Django is set up.

    from benchmarks.database import throwaway
    DB = throwaway("bench_dashboard")   # reads --db sqlite|postgres; then django.setup()

A SQLite file in a fresh temporary folder (in WAL, as in production), or with `--db postgres`
a PostgreSQL database of that name, dropped and made anew on the local server.
"""

import os
import sys
import tempfile


def throwaway(name: str) -> str:
    """Point the settings at a new, empty database called `name`; the kind it is."""
    kind = sys.argv[sys.argv.index("--db") + 1] if "--db" in sys.argv else "sqlite"
    if kind == "postgres":
        import psycopg

        admin = "postgresql://postgres@127.0.0.1:5432/postgres"
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            c.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
    else:
        folder = tempfile.mkdtemp(prefix="polotrainer-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("SECRET_KEY", "benchmark-only")
    os.environ.setdefault("DEPLOY_PROFILE", "lan")  # plain HTTP: the test client asks http://
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")
    return kind
