package org.ssbjca.backend.sqlserver;

import java.util.ArrayList;
import java.util.List;
import org.ssbjca.backend.TableDefinition;
import org.ssbjca.backend.TableRows;

/**
 * The T-SQL of a work queue on an application's table (SQL Server and Azure SQL Database, which have the same table
 * hints), built once per table activation from the names the catalog holds, each quoted as QUOTENAME does.
 * <p>
 * Taking is one statement: a common table expression picks {@code TOP (n)} rows in taking order
 * {@code WITH (UPDLOCK, ROWLOCK, READPAST)} and the DELETE or UPDATE goes through it, returning the rows with
 * {@code OUTPUT}. UPDLOCK takes update locks on the rows read, held to the end of the transaction, so that two readers
 * cannot both pick a row and then both change it; READPAST skips rows another transaction has locked instead of
 * waiting for them (it applies in the READ COMMITTED and REPEATABLE READ isolation levels, the connection's
 * default being READ COMMITTED); ROWLOCK asks for row locks where page or table locks would otherwise be taken, which
 * READPAST could not read past (https://learn.microsoft.com/sql/t-sql/queries/hints-transact-sql-table). The
 * statement changes rows through the CTE as through an updatable view of one table
 * (https://learn.microsoft.com/sql/t-sql/queries/with-common-table-expression-transact-sql), and {@code OUTPUT
 * deleted.*} / {@code inserted.*} returns what it changed, in no particular order
 * (https://learn.microsoft.com/sql/t-sql/queries/output-clause-transact-sql): the adapter sorts the rows.
 * Times are the server's local clock, {@code SYSDATETIME()}, as {@code GETDATE()} gives to {@code datetime} columns.
 */
final class TSqlTable {

    private static final String PROLOGUE = "SET NOCOUNT ON;\n";

    private final TableDefinition.Resolved t;
    private final String table;
    private final String key;
    private final String orderBy;
    private final String available;
    private final String notLeased;
    private final String setAside;

    TSqlTable(TableDefinition.Resolved t) {
        this.t = t;
        this.table = (t.schema() == null ? "" : SqlServerNames.quote(t.schema()) + ".")
                + SqlServerNames.quote(t.table());
        this.key = q("keyColumn");
        List<String> order = new ArrayList<>();
        if (t.column("priorityColumn") != null) {
            order.add(q("priorityColumn"));
        }
        if (t.column("availableColumn") != null) {
            order.add(q("availableColumn"));
        }
        order.add(t.column("orderColumn") != null ? q("orderColumn") : key);
        if (t.column("orderColumn") != null && !t.column("orderColumn").equals(t.column("keyColumn"))) {
            order.add(key);
        }
        this.orderBy = String.join(", ", order);
        List<String> cond = new ArrayList<>();
        if (t.column("doneColumn") != null) {
            cond.add(q("doneColumn") + " IS NULL");
        }
        if (t.column("availableColumn") != null) {
            cond.add(q("availableColumn") + " <= SYSDATETIME()");
        }
        boolean limited = t.column("attemptsColumn") != null && t.definition().maxAttempts() > 0;
        if (limited) {
            cond.add(q("attemptsColumn") + " < " + t.definition().maxAttempts());
        }
        this.notLeased = t.column("leaseColumn") == null ? "1 = 1"
                : "(" + q("leaseColumn") + " IS NULL OR " + q("leaseColumn") + " <= SYSDATETIME())";
        if (t.definition().mode() == TableDefinition.Mode.LEASED) {
            cond.add(notLeased);
        }
        this.available = cond.isEmpty() ? "1 = 1" : String.join(" AND ", cond);
        this.setAside = !limited ? null
                : (t.column("doneColumn") != null ? q("doneColumn") + " IS NULL AND " : "") + q("attemptsColumn")
                        + " >= " + t.definition().maxAttempts() + " AND " + notLeased;
    }

    private String q(String property) {
        return SqlServerNames.quote(t.column(property));
    }

    /** The returned columns, from {@code deleted} or {@code inserted} (or a table alias). */
    private String output(String from) {
        List<String> cols = new ArrayList<>();
        for (String property : TableRows.COLUMNS) {
            String column = "orderColumn".equals(property) && t.column(property) == null
                    ? t.column("keyColumn") : t.column(property);
            cols.add(column == null ? "NULL" : from + "." + SqlServerNames.quote(column));
        }
        return String.join(", ", cols);
    }

    private String picked(int top) {
        return "WITH picked AS (\n    SELECT TOP (" + top + ") * FROM " + table
                + " WITH (UPDLOCK, ROWLOCK, READPAST)\n    WHERE " + available + "\n    ORDER BY " + orderBy + ")\n";
    }

    /** Transactional mode: locks and removes (or marks done) up to {@code top} rows, returning them. */
    String take(int top) {
        if (t.column("doneColumn") == null) {
            return PROLOGUE + picked(top) + "DELETE FROM picked\nOUTPUT " + output("deleted") + ";";
        }
        return PROLOGUE + picked(top) + "UPDATE picked SET " + q("doneColumn") + " = SYSDATETIME()\nOUTPUT "
                + output("inserted") + ";";
    }

    /**
     * Leased mode: locks and leases up to {@code top} rows (lease end, attempts + 1, the taking's mark), returning
     * them. Parameters: lease seconds, then the mark when there is a mark column.
     */
    String lease(int top) {
        return PROLOGUE + picked(top) + "UPDATE picked SET " + leaseSet() + "\nOUTPUT " + output("inserted") + ";";
    }

    private String leaseSet() {
        String set = q("leaseColumn") + " = DATEADD(SECOND, ?, SYSDATETIME())";
        if (t.column("attemptsColumn") != null) {
            set += ", " + q("attemptsColumn") + " = " + q("attemptsColumn") + " + 1";
        }
        if (t.column("markColumn") != null) {
            set += ", " + q("markColumn") + " = ?";
        }
        return set;
    }

    private String token() {
        return t.column("markColumn") != null ? q("markColumn") : q("leaseColumn");
    }

    /** Removes (or marks done) a leased row if the lease is still this taking's. Parameters: key, token. */
    String complete() {
        if (t.column("doneColumn") == null) {
            return PROLOGUE + "DELETE FROM " + table + " WHERE " + key + " = ? AND " + token() + " = ?;";
        }
        return PROLOGUE + "UPDATE " + table + " SET " + q("doneColumn") + " = SYSDATETIME(), " + q("leaseColumn")
                + " = NULL WHERE " + key + " = ? AND " + token() + " = ?;";
    }

    /** Ends a failed row's lease sooner. Parameters: seconds, key, token. */
    String release() {
        return PROLOGUE + "UPDATE " + table + " SET " + q("leaseColumn") + " = DATEADD(SECOND, ?, SYSDATETIME())"
                + " WHERE " + key + " = ? AND " + token() + " = ?;";
    }

    /** Counts one failed taking. Parameter: the key. */
    String countFailure() {
        return PROLOGUE + "UPDATE " + table + " SET " + q("attemptsColumn") + " = " + q("attemptsColumn")
                + " + 1 WHERE " + key + " = ?;";
    }

    /**
     * Available, waiting, leased, set aside, oldest available, now; read WITH (NOLOCK), so that looking never waits
     * for a reader (the counts of a moment, possibly of uncommitted changes).
     */
    String counts() {
        String done = t.column("doneColumn") != null ? q("doneColumn") + " IS NULL" : "1 = 1";
        String waiting = t.column("availableColumn") == null ? "1 = 0"
                : done + " AND " + q("availableColumn") + " > SYSDATETIME()";
        String leased = t.column("leaseColumn") == null ? "1 = 0"
                : done + " AND " + q("leaseColumn") + " > SYSDATETIME()";
        String oldest = t.column("availableColumn") == null ? "NULL"
                : "MIN(CASE WHEN " + available + " THEN " + q("availableColumn") + " END)";
        return PROLOGUE + "SELECT " + count(available) + ", " + count(waiting) + ", " + count(leased) + ", "
                + count(setAside == null ? "1 = 0" : setAside) + ", " + oldest + ", SYSDATETIME() FROM " + table
                + " WITH (NOLOCK);";
    }

    private static String count(String condition) {
        return "COALESCE(SUM(CASE WHEN " + condition + " THEN 1 ELSE 0 END), 0)";
    }

    /** Gives set-aside rows another round; null without a limit. */
    String redeliverSetAside() {
        return setAside == null ? null : PROLOGUE + "UPDATE " + table + " SET " + q("attemptsColumn") + " = 0"
                + (t.column("leaseColumn") != null ? ", " + q("leaseColumn") + " = NULL" : "") + " WHERE "
                + setAside + ";";
    }

    /** Deletes set-aside rows; null without a limit. */
    String purgeSetAside() {
        return setAside == null ? null : PROLOGUE + "DELETE FROM " + table + " WHERE " + setAside + ";";
    }
}
