package org.ssbjca.backend.sqlserver;

import java.util.List;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.backend.table.TableSql;

/**
 * The T-SQL of a work queue on an application's table (SQL Server and Azure SQL Database, which have the same table
 * hints), built once per table activation from the names the catalog holds, each quoted as QUOTENAME does.
 * <p>
 * Taking is one statement: a common table expression picks {@code TOP (n)} rows in taking order
 * {@code WITH (UPDLOCK, ROWLOCK, READPAST)} and the DELETE or UPDATE goes through it, returning the rows with
 * {@code OUTPUT}. UPDLOCK takes update locks on the rows read, held to the end of the transaction, so that two readers
 * cannot both pick a row and then both change it; READPAST skips rows another transaction has locked instead of
 * waiting for them; it applies only at READ COMMITTED and REPEATABLE READ, so the statement runs at READ COMMITTED
 * ({@link TSql#READ_COMMITTED}), and reads by locking with READCOMMITTEDLOCK, as READPAST needs where the database has
 * READ_COMMITTED_SNAPSHOT ON (UPDLOCK reads by locking anyway); ROWLOCK asks for row locks where page or table locks would otherwise be taken, which
 * READPAST could not read past (https://learn.microsoft.com/sql/t-sql/queries/hints-transact-sql-table). The
 * statement changes rows through the CTE as through an updatable view of one table
 * (https://learn.microsoft.com/sql/t-sql/queries/with-common-table-expression-transact-sql), and {@code OUTPUT
 * deleted.*} / {@code inserted.*} returns what it changed, in no particular order
 * (https://learn.microsoft.com/sql/t-sql/queries/output-clause-transact-sql): the adapter sorts the rows.
 * Times are the server's local clock, {@code SYSDATETIME()}, as {@code GETDATE()} gives to {@code datetime} columns.
 * The parts every backend shares come from {@link TableSql}, in T-SQL's spelling ({@link #SPELLING}); the counts
 * are read WITH (NOLOCK), so that looking never waits for a reader (the counts of a moment, possibly of uncommitted
 * changes).
 */
final class TSqlTable {

    private static final String PROLOGUE = "SET NOCOUNT ON;\n";
    /**
     * T-SQL's spelling of the shared parts. A change whose count matters (complete, redeliver, purge) counts its rows
     * with {@code OUTPUT ... INTO} a table variable and returns the count as a result set: under SET NOCOUNT ON the
     * driver has no update count to give, and without it a trigger's counts come back too. OUTPUT lists the rows the
     * statement itself changed; a table with enabled triggers refuses OUTPUT without INTO, not OUTPUT INTO a table
     * variable (https://learn.microsoft.com/sql/t-sql/queries/output-clause-transact-sql). A lease end read back from
     * a {@code datetime} column is compared as a datetime: mssql-jdbc sends a Timestamp as datetime2, and from
     * compatibility level 130 a datetime converts to datetime2 exactly (.003 is .0033333), so the two would differ
     * (https://learn.microsoft.com/sql/t-sql/data-types/datetime-transact-sql).
     */
    static final TableSql.Spelling SPELLING = new TableSql.Spelling(SqlServerNames::quote, "SYSDATETIME()",
            "DATEADD(SECOND, ?, SYSDATETIME())", "1 = 1", "1 = 0", text -> PROLOGUE + text + ";", " WITH (NOLOCK)",
            (head, where) -> PROLOGUE + "DECLARE @changed TABLE (n INT);\n" + head
                    + " OUTPUT 1 INTO @changed (n) WHERE " + where + ";\nSELECT COUNT(*) FROM @changed;",
            type -> "datetime".equalsIgnoreCase(type) ? "CAST(? AS DATETIME)" : "?");

    /** The time columns, compared with SYSDATETIME() or set to it. */
    private static final List<ColumnRole> TIME_COLUMNS = List.of(ColumnRole.AVAILABLE, ColumnRole.LEASE,
            ColumnRole.DONE, ColumnRole.ERROR_TIME);
    /** The types a time column may have: those SYSDATETIME(), the server's local time, compares with as it is. */
    private static final List<String> TIME_TYPES = List.of("datetime2", "datetime");

    /**
     * Refuses a time column whose type the statements cannot compare with the server's local time: datetimeoffset
     * (compared with SYSDATETIME(), a datetime2, it is off by the server's UTC offset), smalldatetime (a lease end
     * rounded to the minute), date and anything else.
     *
     * @param t the resolved table
     * @throws IllegalArgumentException naming the property, the column, its type and the accepted types
     */
    static void checkTimeTypes(TableDefinition.Resolved t) {
        for (ColumnRole property : TIME_COLUMNS) {
            String type = t.typeName(property);
            if (t.column(property) != null && (type == null
                    || !TIME_TYPES.contains(type.toLowerCase(java.util.Locale.ROOT)))) {
                throw new IllegalArgumentException(property + ": the column " + t.column(property) + " of "
                        + new TableSql(t, SPELLING).table() + " is " + type + "; a table queue on SQL Server compares"
                        + " its time columns with SYSDATETIME(), the server's local time, and accepts "
                        + String.join(" or ", TIME_TYPES));
            }
        }
    }

    private final TableSql sql;

    TSqlTable(TableDefinition.Resolved t) {
        this.sql = new TableSql(t, SPELLING);
    }

    /** Returns the statements every backend shares, in T-SQL. */
    TableSql shared() {
        return sql;
    }

    private String picked(int top, int held) {
        return "WITH picked AS (\n    SELECT TOP (" + top + ") * FROM " + sql.table()
                + " WITH (UPDLOCK, ROWLOCK, READCOMMITTEDLOCK, READPAST)\n    WHERE " + sql.available(held)
                + "\n    ORDER BY " + sql.orderBy()
                + ")\n";
    }

    /** Transactional mode: locks and removes (or marks done) up to {@code top} rows, returning them. */
    String take(int top) {
        return take(top, 0);
    }

    /**
     * Transactional mode: locks and removes (or marks done) up to {@code top} rows that are not among {@code held}
     * keys (rows held back after a failed delivery), returning them. Parameters: the held keys.
     */
    String take(int top, int held) {
        if (!sql.hasColumn(ColumnRole.DONE)) {
            return PROLOGUE + TSql.READ_COMMITTED + picked(top, held) + "DELETE FROM picked\nOUTPUT "
                    + sql.columns("deleted.") + ";";
        }
        return PROLOGUE + TSql.READ_COMMITTED + picked(top, held) + "UPDATE picked SET " + sql.q(ColumnRole.DONE)
                + " = SYSDATETIME()\nOUTPUT "
                + sql.columns("inserted.") + ";";
    }

    /**
     * Leased mode: locks and leases up to {@code top} rows (lease end, attempts + 1, the taking's mark), returning
     * them. Parameters: lease seconds, then the mark when there is a mark column.
     */
    String lease(int top) {
        return PROLOGUE + TSql.READ_COMMITTED + picked(top, 0) + "UPDATE picked SET " + sql.leaseSet() + "\nOUTPUT "
                + sql.columns("inserted.") + ";";
    }
}
