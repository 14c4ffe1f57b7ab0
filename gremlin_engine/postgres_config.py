"""A PostgreSQL graph's configuration keys, turned into the SQLAlchemy URL its store opens.

HugeGraph's old SQL backends (MySQL, PostgreSQL, CockroachDB, dropped in 1.7) were configured
with `jdbc.url`, `jdbc.username` and `jdbc.password`, and kept a graph in the database named
by the graph's `store` key, lower-cased (`MysqlStoreProvider.database()`): `jdbc.url` names
the server only (`jdbc:postgresql://127.0.0.1:5432/`). A graph file written for HugeGraph
therefore works here as it is:

    backend=postgresql
    store=hugegraph
    jdbc.url=jdbc:postgresql://127.0.0.1:5432/
    jdbc.username=postgres
    jdbc.password=secret

Python users may write one SQLAlchemy URL instead (`sqlalchemy.url=postgresql+psycopg://
user:pw@host:5432/db`); its database, when it names one, is the store's. Either way the
driver is psycopg 3. Every refusal here is an `IllegalArgument` naming the key at fault,
which the server turns into a start-up error naming the file as well.

Passwords are secrets: `masked_text` is what `GET /graphs/{g}/conf` shows and `display_url`
what logs and the CLI print, both with the password replaced by `******`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import parse_qsl, urlsplit

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from gremlin_engine.errors import IllegalArgument

DRIVER = "postgresql+psycopg"
JDBC_PREFIX = "jdbc:postgresql://"
DEFAULT_PORT = 5432
MASK = "******"
#: what PostgreSQL accepts as an unquoted database name, after HugeGraph's lower-casing
DATABASE_RE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
#: libpq connection options a `jdbc.url` query may carry (pgjdbc knows them by the same
#: names); a JDBC-only option (`loggerLevel`, `ssl`) is refused rather than guessed at
LIBPQ_OPTIONS = ("sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name",
                 "options", "target_session_attrs")
SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
#: the keys this module reads (kept in the graph's `extra`, shown masked by `/conf`)
KEYS = ("jdbc.url", "jdbc.username", "jdbc.password", "jdbc.ssl_mode", "sqlalchemy.url")
SECRET_KEYS = ("jdbc.password",)


def database_name(graph: str, store: str | None) -> str:
    """The database of a graph: its `store`, lower-cased as HugeGraph did (default: the
    graph's name, as a sqlite graph's file is `data/<name>.db` by default)."""
    name = (store or graph).strip().lower()
    if not DATABASE_RE.match(name):
        raise IllegalArgument(
            f"Graph '{graph}': store must name a PostgreSQL database (a letter or '_', then letters, digits "
            f"or '_', at most 63), but got '{store}'")
    return name


def server_url(graph: str, store: str | None, props: Mapping[str, str]) -> URL:
    """The SQLAlchemy URL of a PostgreSQL graph's database, from its properties."""
    plain = (props.get("sqlalchemy.url") or "").strip()
    jdbc = (props.get("jdbc.url") or "").strip()
    if plain and jdbc:
        raise IllegalArgument(f"Graph '{graph}': give jdbc.url (with jdbc.username, jdbc.password) or "
                              "sqlalchemy.url, not both")
    if plain:
        return _from_sqlalchemy_url(graph, store, plain)
    if not jdbc:
        raise IllegalArgument(f"Graph '{graph}': backend=postgresql needs jdbc.url (e.g. "
                              f"jdbc.url={JDBC_PREFIX}127.0.0.1:5432/, with jdbc.username and jdbc.password) "
                              f"or sqlalchemy.url ({DRIVER}://user:password@host:5432/database)")
    return _from_jdbc(graph, store, jdbc, props)


def _from_jdbc(graph: str, store: str | None, jdbc: str, props: Mapping[str, str]) -> URL:
    if not jdbc.startswith(JDBC_PREFIX):
        raise IllegalArgument(f"Graph '{graph}': jdbc.url must start with {JDBC_PREFIX}, but got '{jdbc}'")
    parts = urlsplit("postgresql://" + jdbc[len(JDBC_PREFIX):])
    if "," in parts.netloc:
        raise IllegalArgument(f"Graph '{graph}': jdbc.url names several hosts ('{parts.netloc}'); give one")
    if parts.username or parts.password:
        raise IllegalArgument(f"Graph '{graph}': jdbc.url must not carry a user or password; "
                              "use jdbc.username and jdbc.password")
    try:
        host, port = parts.hostname, parts.port or DEFAULT_PORT
    except ValueError:
        raise IllegalArgument(f"Graph '{graph}': jdbc.url has a bad port: '{jdbc}'") from None
    if not host:
        raise IllegalArgument(f"Graph '{graph}': jdbc.url names no host: '{jdbc}'")
    named = parts.path.strip("/")
    if named:
        raise IllegalArgument(
            f"Graph '{graph}': jdbc.url names the database '{named}', but the database is the graph's store "
            f"(HugeGraph's rule): end jdbc.url after the port ({JDBC_PREFIX}{parts.netloc}/) and set store={named}")
    query = _jdbc_query(graph, parts.query, props.get("jdbc.ssl_mode"))
    username = (props.get("jdbc.username") or "").strip()
    if not username:
        raise IllegalArgument(f"Graph '{graph}': backend=postgresql with jdbc.url needs jdbc.username")
    password = props.get("jdbc.password") or None
    return URL.create(DRIVER, username=username, password=password, host=host, port=port,
                      database=database_name(graph, store), query=query)


def _jdbc_query(graph: str, text: str, ssl_mode: str | None) -> dict[str, str]:
    query = dict(parse_qsl(text, keep_blank_values=True))
    unknown = sorted(set(query) - set(LIBPQ_OPTIONS))
    if unknown:
        raise IllegalArgument(f"Graph '{graph}': jdbc.url option {unknown[0]} is not one hugelite passes to "
                              f"PostgreSQL; use one of {list(LIBPQ_OPTIONS)}")
    mode = (ssl_mode or "").strip().lower()
    if mode in ("", "false"):  # HugeGraph's default ("false"): the driver's own default
        return query
    mode = "require" if mode == "true" else mode
    if mode not in SSL_MODES:
        raise IllegalArgument(f"Graph '{graph}': jdbc.ssl_mode must be one of {list(SSL_MODES)} "
                              f"(or true/false), but got '{ssl_mode}'")
    return {**query, "sslmode": mode}


def _from_sqlalchemy_url(graph: str, store: str | None, text: str) -> URL:
    try:
        url = make_url(text)
    except ArgumentError:
        raise IllegalArgument(f"Graph '{graph}': sqlalchemy.url is not a URL: '{mask_url_text(text)}'") from None
    if url.drivername == "postgresql":
        url = url.set(drivername=DRIVER)
    if url.drivername != DRIVER:
        raise IllegalArgument(f"Graph '{graph}': sqlalchemy.url must start with postgresql:// or {DRIVER}:// "
                              f"(hugelite's driver is psycopg 3), but its driver is '{url.drivername}'")
    if not url.host:
        raise IllegalArgument(f"Graph '{graph}': sqlalchemy.url names no host")
    if url.database:
        if store and database_name(graph, store) != url.database:
            raise IllegalArgument(f"Graph '{graph}': sqlalchemy.url names the database '{url.database}' and "
                                  f"store names '{store}': leave one out")
        if not DATABASE_RE.match(url.database):
            raise IllegalArgument(f"Graph '{graph}': sqlalchemy.url's database must be a plain lower-case name "
                                  f"(letters, digits, '_'), but got '{url.database}'")
        return url
    return url.set(database=database_name(graph, store))


def without_database(url: URL) -> str:
    """The URL of the same server and user, naming no database (password kept)."""
    bare = URL.create(url.drivername, username=url.username, password=url.password, host=url.host,
                      port=url.port, query=url.query)
    return str(bare.render_as_string(hide_password=False))


def display_url(url: URL) -> str:
    """The URL with its password masked: what logs, messages and the CLI show."""
    return url.render_as_string(hide_password=True)


def mask_url_text(text: str) -> str:
    """A URL given as text with the password between `:` and `@` masked (for messages about
    a URL that did not parse)."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", rf"\g<1>{MASK}@", text)


_SECRET_LINE = re.compile(r"^(\s*(?:jdbc\.password)\s*[=:\s]\s*).*$")
_URL_LINE = re.compile(r"^(\s*sqlalchemy\.url\s*[=:\s]\s*)(.*)$")


def masked_text(text: str) -> str:
    """`.properties` text with `jdbc.password`'s value and `sqlalchemy.url`'s password
    replaced by `******`, line by line, comments and order kept."""
    lines = []
    for line in text.splitlines():
        secret = _SECRET_LINE.match(line)
        if secret and line.strip()[:1] not in ("#", "!"):
            line = secret.group(1) + MASK
        elif (url := _URL_LINE.match(line)) and line.strip()[:1] not in ("#", "!"):
            line = url.group(1) + mask_url_text(url.group(2))
        lines.append(line)
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")
