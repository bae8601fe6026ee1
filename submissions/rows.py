"""Model instances from rows of hand-written SQL, without a queryset (PostgreSQL's hot path of a submission).

`Model.objects.raw()` works out, for every query, which column is which field and what converts each value;
for the few statements a submission runs on every PUT that work is done once per process here: the column
list (select_list) and the converters (the fields' from_db_value and the backend's, as the ORM applies them)
are cached per model, and rows become instances through Model.from_db, as the ORM's own do."""

import functools

from django.db import DEFAULT_DB_ALIAS, connections


def database():
    """The default connection itself rather than the `django.db.connection` proxy (a thread-local lookup on
    every attribute read)."""
    return connections[DEFAULT_DB_ALIAS]


@functools.cache
def select_list(model, alias):
    """`alias."col", …` for the model's concrete fields, in the order load() expects."""
    quote = database().ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


@functools.cache
def _loader(model):
    db = database()
    names, converters = [], []
    for field in model._meta.concrete_fields:
        column = field.get_col(model._meta.db_table)
        names.append(field.attname)
        converters.append((column, db.ops.get_db_converters(column) + column.get_db_converters(db)))
    return names, converters


def load(db, model, row):
    """(instance, the row's values after the model's columns) of one row that starts with select_list()."""
    names, converters = _loader(model)
    values = list(row[: len(names)])
    for position, (column, functions) in enumerate(converters):
        for convert in functions:
            values[position] = convert(values[position], column, db)
    return model.from_db(db.alias, names, values), row[len(names) :]


def fetch_one(db, model, sql, params):
    """(instance, extra values) of the first row of `sql`, or (None, ())."""
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return load(db, model, row) if row is not None else (None, ())
