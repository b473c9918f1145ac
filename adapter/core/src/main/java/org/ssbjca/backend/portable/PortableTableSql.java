package org.ssbjca.backend.portable;

import java.util.ArrayList;
import java.util.List;
import org.ssbjca.backend.TableDefinition;

/**
 * The SQL of a work queue on an application's table, for PostgreSQL and H2, built once per table activation from the
 * names the catalog holds, each quoted ({@code "name"}, a quote doubled). Times are the database's local clock
 * ({@code LOCALTIMESTAMP}): PostgreSQL compares it with a {@code timestamptz} column in the session's time zone, so
 * both kinds of column work.
 * <p>
 * PostgreSQL takes rows in one statement: a {@code MATERIALIZED} CTE picks and locks them ({@code FOR UPDATE SKIP
 * LOCKED} locks only the rows it returns, after the {@code LIMIT}), then the DELETE or UPDATE returns them. H2 locks
 * every row its {@code FOR UPDATE} reads, whatever the {@code FETCH FIRST}, so there the candidates are read without
 * locking and each is locked alone, by its key, with the conditions checked again ({@link #lockOne}).
 */
final class PortableTableSql {

    private final boolean postgresql;
    private final TableDefinition.Resolved t;
    private final String table;
    private final String key;
    private final String columns;
    private final String orderBy;
    /** Conditions of a row a reader may take now (without the lease's). */
    private final String available;
    /** Conditions of a row no lease holds. */
    private final String notLeased;
    private final String setAside;

    PortableTableSql(boolean postgresql, TableDefinition.Resolved t) {
        this.postgresql = postgresql;
        this.t = t;
        this.table = (t.schema() == null ? "" : quote(t.schema()) + ".") + quote(t.table());
        this.key = quote(t.column("keyColumn"));
        List<String> cols = new ArrayList<>(List.of(key, quote(t.column("payloadColumn"))));
        cols.add(optional("priorityColumn"));
        cols.add(optional("availableColumn"));
        cols.add(optional("attemptsColumn"));
        cols.add(optional("leaseColumn"));
        cols.add(optional("markColumn"));
        cols.add(t.column("orderColumn") != null ? quote(t.column("orderColumn")) : key);
        this.columns = String.join(", ", cols);
        List<String> order = new ArrayList<>();
        if (t.column("priorityColumn") != null) {
            order.add(quote(t.column("priorityColumn")));
        }
        if (t.column("availableColumn") != null) {
            order.add(quote(t.column("availableColumn")));
        }
        order.add(t.column("orderColumn") != null ? quote(t.column("orderColumn")) : key);
        if (t.column("orderColumn") != null && !t.column("orderColumn").equals(t.column("keyColumn"))) {
            order.add(key);
        }
        this.orderBy = String.join(", ", order);
        List<String> cond = new ArrayList<>();
        if (t.column("doneColumn") != null) {
            cond.add(quote(t.column("doneColumn")) + " IS NULL");
        }
        if (t.column("availableColumn") != null) {
            cond.add(quote(t.column("availableColumn")) + " <= LOCALTIMESTAMP");
        }
        String attempts = t.column("attemptsColumn") != null && t.definition().maxAttempts() > 0
                ? quote(t.column("attemptsColumn")) : null;
        if (attempts != null) {
            cond.add(attempts + " < " + t.definition().maxAttempts());
        }
        this.notLeased = t.column("leaseColumn") == null ? "TRUE"
                : "(" + quote(t.column("leaseColumn")) + " IS NULL OR " + quote(t.column("leaseColumn"))
                        + " <= LOCALTIMESTAMP)";
        if (t.definition().mode() == TableDefinition.Mode.LEASED) {
            cond.add(notLeased);
        }
        this.available = cond.isEmpty() ? "TRUE" : String.join(" AND ", cond);
        this.setAside = attempts == null ? "FALSE"
                : (t.column("doneColumn") != null ? quote(t.column("doneColumn")) + " IS NULL AND " : "") + attempts
                        + " >= " + t.definition().maxAttempts() + " AND " + notLeased;
    }

    /** A column of the result, or a NULL in its place when the activation names none. */
    private String optional(String property) {
        return t.column(property) == null ? "NULL" : quote(t.column(property));
    }

    static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** What a taken row becomes: deleted, or marked done. */
    private String dispose(String where) {
        if (t.column("doneColumn") == null) {
            return "DELETE FROM " + table + " WHERE " + where;
        }
        return "UPDATE " + table + " SET " + quote(t.column("doneColumn")) + " = LOCALTIMESTAMP"
                + (t.column("leaseColumn") != null ? ", " + quote(t.column("leaseColumn")) + " = NULL" : "")
                + " WHERE " + where;
    }

    /** Lease end, attempts + 1, the taking's mark (parameters: seconds, then the mark when there is a column). */
    private String leaseSet() {
        String lease = quote(t.column("leaseColumn")) + " = "
                + (postgresql ? "LOCALTIMESTAMP + make_interval(secs => ?)" : "DATEADD(SECOND, ?, LOCALTIMESTAMP)");
        if (t.column("attemptsColumn") != null) {
            lease += ", " + quote(t.column("attemptsColumn")) + " = " + quote(t.column("attemptsColumn")) + " + 1";
        }
        if (t.column("markColumn") != null) {
            lease += ", " + quote(t.column("markColumn")) + " = ?";
        }
        return lease;
    }

    // ---- PostgreSQL: one statement per taking

    /** PostgreSQL: locks and removes (or marks) up to {@code top} rows, returning them. */
    String pgTake(int top) {
        return "WITH picked AS MATERIALIZED (SELECT " + key + " FROM " + table + " WHERE " + available
                + " ORDER BY " + orderBy + " LIMIT " + top + " FOR UPDATE SKIP LOCKED) "
                + dispose(key + " IN (SELECT " + key + " FROM picked)") + " RETURNING " + columns;
    }

    /** PostgreSQL: locks and leases up to {@code top} rows, returning them. Parameters: see {@link #leaseSet}. */
    String pgLease(int top) {
        return "WITH picked AS MATERIALIZED (SELECT " + key + " FROM " + table + " WHERE " + available
                + " ORDER BY " + orderBy + " LIMIT " + top + " FOR UPDATE SKIP LOCKED) UPDATE " + table + " SET "
                + leaseSet() + " WHERE " + key + " IN (SELECT " + key + " FROM picked) RETURNING " + columns;
    }

    // ---- H2: candidates, then one lock per row

    /** H2: keys of available rows in taking order, without locking. Parameter: how many. */
    String candidates() {
        return "SELECT " + key + " FROM " + table + " WHERE " + available + " ORDER BY " + orderBy
                + " OFFSET ? ROWS FETCH NEXT ? ROWS ONLY";
    }

    /** H2: locks one row by its key if it is still available and no one holds it. Parameter: the key. */
    String lockOne() {
        return "SELECT " + columns + " FROM " + table + " WHERE " + key + " = ? AND " + available
                + " FOR UPDATE SKIP LOCKED";
    }

    /** H2: removes (or marks) one locked row. Parameter: the key. */
    String disposeOne() {
        return dispose(key + " = ?");
    }

    /** H2: leases one locked row. Parameters: see {@link #leaseSet}, then the key. */
    String leaseOne() {
        return "UPDATE " + table + " SET " + leaseSet() + " WHERE " + key + " = ?";
    }

    /** H2: the lease and attempts of a row just leased. Parameter: the key. */
    String readOne() {
        return "SELECT " + columns + " FROM " + table + " WHERE " + key + " = ?";
    }

    // ---- both

    /** Removes (or marks) a leased row if the lease is still this taking's. Parameters: key, token. */
    String complete() {
        return dispose(key + " = ? AND " + tokenColumn() + " = ?");
    }

    /** Ends a failed row's lease sooner. Parameters: seconds, key, token. */
    String release() {
        return "UPDATE " + table + " SET " + quote(t.column("leaseColumn")) + " = "
                + (postgresql ? "LOCALTIMESTAMP + make_interval(secs => ?)" : "DATEADD(SECOND, ?, LOCALTIMESTAMP)")
                + " WHERE " + key + " = ? AND " + tokenColumn() + " = ?";
    }

    /** What marks a taking: the mark column, else the lease's end. */
    private String tokenColumn() {
        return quote(t.column(t.column("markColumn") != null ? "markColumn" : "leaseColumn"));
    }

    /** Counts one failed taking. Parameter: the key. */
    String countFailure() {
        return "UPDATE " + table + " SET " + quote(t.column("attemptsColumn")) + " = "
                + quote(t.column("attemptsColumn")) + " + 1 WHERE " + key + " = ?";
    }

    /** Available, waiting, leased, set aside, oldest available, now; read without locking. */
    String counts() {
        String done = t.column("doneColumn") != null ? quote(t.column("doneColumn")) + " IS NULL" : "TRUE";
        String waiting = t.column("availableColumn") == null ? "FALSE"
                : done + " AND " + quote(t.column("availableColumn")) + " > LOCALTIMESTAMP";
        String leased = t.column("leaseColumn") == null ? "FALSE"
                : done + " AND " + quote(t.column("leaseColumn")) + " > LOCALTIMESTAMP";
        String oldest = t.column("availableColumn") == null ? "NULL"
                : "MIN(CASE WHEN " + available + " THEN " + quote(t.column("availableColumn")) + " END)";
        return "SELECT " + count(available) + ", " + count(waiting) + ", " + count(leased) + ", " + count(setAside)
                + ", " + oldest + ", LOCALTIMESTAMP FROM " + table;
    }

    private static String count(String condition) {
        return "COALESCE(SUM(CASE WHEN " + condition + " THEN 1 ELSE 0 END), 0)";
    }

    /** Gives set-aside rows another round. */
    String redeliverSetAside() {
        return "UPDATE " + table + " SET " + quote(t.column("attemptsColumn")) + " = 0"
                + (t.column("leaseColumn") != null ? ", " + quote(t.column("leaseColumn")) + " = NULL" : "")
                + " WHERE " + setAside;
    }

    /** Deletes set-aside rows. */
    String purgeSetAside() {
        return "DELETE FROM " + table + " WHERE " + setAside;
    }

    /** @return whether rows can be set aside (an attempts column and a limit) */
    boolean hasLimit() {
        return !"FALSE".equals(setAside);
    }
}
