package org.ssbjca.backend.portable;

import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.backend.table.TableSql;

/**
 * The SQL of a work queue on an application's table, for PostgreSQL and H2, built once per table activation from the
 * names the catalog holds, each quoted ({@code "name"}, a quote doubled); the parts every backend shares come from
 * {@link TableSql}. Times are the database's local clock ({@code LOCALTIMESTAMP}): PostgreSQL compares it with a
 * {@code timestamptz} column in the session's time zone, so both kinds of column work.
 * <p>
 * PostgreSQL takes rows in one statement: a {@code MATERIALIZED} CTE picks and locks them ({@code FOR UPDATE SKIP
 * LOCKED} locks only the rows it returns, after the {@code LIMIT}), then the DELETE or UPDATE returns them. H2 locks
 * every row its {@code FOR UPDATE} reads, whatever the {@code FETCH FIRST}, so there the candidates are read without
 * locking and each is locked alone, by its key, with the conditions checked again ({@link #lockOne}).
 */
final class PortableTableSql {

    private final TableSql sql;
    private final String table;
    private final String key;
    private final String columns;

    PortableTableSql(boolean postgresql, TableDefinition.Resolved t) {
        this.sql = new TableSql(t, new TableSql.Spelling(PortableTableSql::quote, "LOCALTIMESTAMP",
                postgresql ? "LOCALTIMESTAMP + make_interval(secs => ?)" : "DATEADD(SECOND, ?, LOCALTIMESTAMP)",
                "TRUE", "FALSE", text -> text, "", (head, where) -> head + " WHERE " + where,
                type -> "?"));
        this.table = sql.table();
        this.key = sql.key();
        this.columns = sql.columns("");
    }

    static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    // ---- PostgreSQL: one statement per taking

    /**
     * PostgreSQL: locks and removes (or marks) up to {@code top} rows, returning them. Parameters: {@code held} keys
     * left out.
     */
    String pgTake(int top, int held) {
        return picked(top, held) + sql.dispose(key + " IN (SELECT " + key + " FROM picked)") + " RETURNING " + columns;
    }

    /** PostgreSQL: locks and leases up to {@code top} rows, returning them. Parameters: see {@link TableSql#leaseSet}. */
    String pgLease(int top) {
        return picked(top, 0) + "UPDATE " + table + " SET " + sql.leaseSet() + " WHERE " + key + " IN (SELECT " + key
                + " FROM picked) RETURNING " + columns;
    }

    private String picked(int top, int held) {
        return "WITH picked AS MATERIALIZED (SELECT " + key + " FROM " + table + " WHERE " + sql.available(held)
                + " ORDER BY " + sql.orderBy() + " LIMIT " + top + " FOR UPDATE SKIP LOCKED) ";
    }

    // ---- H2: candidates, then one lock per row

    /**
     * H2: keys of available rows in taking order, without locking. Parameters: {@code held} keys left out, offset, how
     * many.
     */
    String candidates(int held) {
        return "SELECT " + key + " FROM " + table + " WHERE " + sql.available(held) + " ORDER BY " + sql.orderBy()
                + " OFFSET ? ROWS FETCH NEXT ? ROWS ONLY";
    }

    /** H2: locks one row by its key if it is still available and no one holds it. Parameter: the key. */
    String lockOne() {
        return "SELECT " + columns + " FROM " + table + " WHERE " + key + " = ? AND " + sql.available()
                + " FOR UPDATE SKIP LOCKED";
    }

    /** H2: removes (or marks) one locked row. Parameter: the key. */
    String disposeOne() {
        return sql.dispose(key + " = ?");
    }

    /** H2: leases one locked row. Parameters: see {@link TableSql#leaseSet}, then the key. */
    String leaseOne() {
        return "UPDATE " + table + " SET " + sql.leaseSet() + " WHERE " + key + " = ?";
    }

    /** H2: the lease and attempts of a row just leased. Parameter: the key. */
    String readOne() {
        return "SELECT " + columns + " FROM " + table + " WHERE " + key + " = ?";
    }

    /** Returns the statements every backend shares. */
    TableSql shared() {
        return sql;
    }
}
