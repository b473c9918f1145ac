package org.ssbjca.backend.table;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

/**
 * The parts of a table queue's SQL that every backend writes alike, spelled in a backend's dialect: which rows are
 * available, set aside, in which order, and the statements that take no rows (complete, release, give back, count,
 * redeliver, purge). Each backend's own class ({@code PortableTableSql}, {@code TSqlTable}) adds how rows are taken
 * (PostgreSQL's CTE with SKIP LOCKED, H2's lock per row, SQL Server's table hints and OUTPUT) and keeps the texts in
 * its one place.
 */
public final class TableSql {

    /**
     * How a backend spells names, the time, a lease's end, the constant conditions, a whole statement (SQL Server's
     * prologue and terminator) and a read that must not wait for locks.
     *
     * @param quote quotes a name as the catalog spells it
     * @param now the database's local clock
     * @param leaseEnd now plus one parameter of seconds
     * @param yes a condition always true
     * @param no a condition always false
     * @param statement makes a whole statement of a text
     * @param readHint written after the table a count reads (empty for none)
     * @param counted makes a whole statement of a change whose row count the caller needs, from its head
     *        ({@code UPDATE t SET ...} or {@code DELETE FROM t}) and its condition: the backend's table queue reads
     *        the count as this statement returns it ({@link JdbcTableQueue#rowsChanged})
     * @param parameterAs how a parameter compared with a column of a type (the catalog's type name) is written, so
     *        that it compares as the column's value: {@code ?}, or a cast to the column's type
     */
    public record Spelling(UnaryOperator<String> quote, String now, String leaseEnd, String yes, String no,
            UnaryOperator<String> statement, String readHint, BinaryOperator<String> counted,
            UnaryOperator<String> parameterAs) {
    }

    private final TableDefinition.Resolved t;
    private final Spelling s;
    private final String table;
    private final String key;
    private final String orderBy;
    private final String available;
    private final String setAside;

    /**
     * @param t the resolved table
     * @param s the backend's spelling: {@code leaseEnd} is the expression of now plus one parameter of seconds
     */
    public TableSql(TableDefinition.Resolved t, Spelling s) {
        this.t = t;
        this.s = s;
        this.table = (t.schema() == null ? "" : s.quote().apply(t.schema()) + ".") + s.quote().apply(t.table());
        this.key = q(ColumnRole.KEY);
        List<String> order = new ArrayList<>();
        if (has(ColumnRole.PRIORITY)) {
            order.add(q(ColumnRole.PRIORITY));
        }
        if (has(ColumnRole.AVAILABLE)) {
            order.add(q(ColumnRole.AVAILABLE));
        }
        order.add(has(ColumnRole.ORDER) ? q(ColumnRole.ORDER) : key);
        if (has(ColumnRole.ORDER) && !t.column(ColumnRole.ORDER).equals(t.column(ColumnRole.KEY))) {
            order.add(key);
        }
        this.orderBy = String.join(", ", order);
        List<String> cond = new ArrayList<>();
        if (has(ColumnRole.DONE)) {
            cond.add(q(ColumnRole.DONE) + " IS NULL");
        }
        if (has(ColumnRole.AVAILABLE)) {
            cond.add(q(ColumnRole.AVAILABLE) + " <= " + s.now());
        }
        boolean limited = has(ColumnRole.ATTEMPTS) && t.definition().maxAttempts() > 0;
        if (limited) {
            cond.add(q(ColumnRole.ATTEMPTS) + " < " + t.definition().maxAttempts());
        }
        String notLeased = !has(ColumnRole.LEASE) ? s.yes()
                : "(" + q(ColumnRole.LEASE) + " IS NULL OR " + q(ColumnRole.LEASE) + " <= " + s.now() + ")";
        if (t.definition().mode() == TableDefinition.Mode.LEASED) {
            cond.add(notLeased);
        }
        this.available = cond.isEmpty() ? s.yes() : String.join(" AND ", cond);
        this.setAside = !limited ? null
                : (has(ColumnRole.DONE) ? q(ColumnRole.DONE) + " IS NULL AND " : "") + q(ColumnRole.ATTEMPTS) + " >= "
                        + t.definition().maxAttempts() + " AND " + notLeased;
    }

    private boolean has(ColumnRole property) {
        return t.column(property) != null;
    }

    /**
     * Returns whether the activation names that column.
     *
     * @param property an activation property naming a column
     */
    public boolean hasColumn(ColumnRole property) {
        return has(property);
    }

    /** Returns the column an activation property names, quoted. */
    public String q(ColumnRole property) {
        return s.quote().apply(t.column(property));
    }

    /** Returns the table, quoted (with its schema). */
    public String table() {
        return table;
    }

    /** Returns the key column, quoted. */
    public String key() {
        return key;
    }

    /** Returns the taking order: priority, availability, the order column (the key by default), the key. */
    public String orderBy() {
        return orderBy;
    }

    /** Returns the condition of a row a reader may take now. */
    public String available() {
        return available;
    }

    /**
     * Returns the condition of a row a reader may take now and that is not one of {@code held} keys, each a parameter.
     *
     * @param held how many keys a taking leaves out (rows held back after a failed delivery), 0 for none
     */
    public String available(int held) {
        if (held == 0) {
            return available;
        }
        StringBuilder in = new StringBuilder(available).append(" AND ").append(key).append(" NOT IN (?");
        in.append(", ?".repeat(held - 1));
        return in.append(")").toString();
    }

    /**
     * Returns the number of parameters its statement has for them: the next power of two, so that few texts are made
     * (the last key repeated fills the rest).
     *
     * @param keys how many keys a taking leaves out
     */
    public static int heldParameters(int keys) {
        return keys <= 1 ? keys : Integer.highestOneBit(keys - 1) << 1;
    }

    /** Returns whether rows can be set aside (an attempts column and a limit). */
    public boolean hasLimit() {
        return setAside != null;
    }

    /**
     * Returns {@link TableRows#COLUMNS}, NULL where the activation names none, the order column the key by default.
     *
     * @param from {@code ""}, or a table alias with its dot ({@code "deleted."})
     */
    public String columns(String from) {
        List<String> cols = new ArrayList<>();
        for (ColumnRole property : TableRows.COLUMNS) {
            String column = ColumnRole.ORDER.equals(property) && !has(property) ? t.column(ColumnRole.KEY)
                    : t.column(property);
            cols.add(column == null ? "NULL" : from + s.quote().apply(column));
        }
        return String.join(", ", cols);
    }

    /** Returns what a taken row becomes where {@code where} holds: deleted, or marked done (its lease cleared). */
    public String dispose(String where) {
        return disposeHead() + " WHERE " + where;
    }

    private String disposeHead() {
        if (!has(ColumnRole.DONE)) {
            return "DELETE FROM " + table;
        }
        return "UPDATE " + table + " SET " + q(ColumnRole.DONE) + " = " + s.now()
                + (has(ColumnRole.LEASE) ? ", " + q(ColumnRole.LEASE) + " = NULL" : "");
    }

    /** Returns lease end, attempts + 1, the taking's mark (parameters: seconds, then the mark with a mark column). */
    public String leaseSet() {
        String set = q(ColumnRole.LEASE) + " = " + s.leaseEnd();
        if (has(ColumnRole.ATTEMPTS)) {
            set += ", " + q(ColumnRole.ATTEMPTS) + " = " + q(ColumnRole.ATTEMPTS) + " + 1";
        }
        if (has(ColumnRole.MARK)) {
            set += ", " + q(ColumnRole.MARK) + " = ?";
        }
        return set;
    }

    /** The condition that a row's taking is still the token parameter's: its mark, else its lease's end. */
    private String tokenIs() {
        ColumnRole property = has(ColumnRole.MARK) ? ColumnRole.MARK : ColumnRole.LEASE;
        return q(property) + " = " + s.parameterAs().apply(t.typeName(property));
    }

    /**
     * Returns removes (or marks done) a leased row if the lease is still this taking's, its count of rows changed read
     * as the spelling's {@code counted} returns it; parameters key, token.
     */
    public String complete() {
        return s.counted().apply(disposeHead(), key + " = ? AND " + tokenIs());
    }

    /** Returns ends a failed row's lease sooner; parameters seconds, key, token. */
    public String release() {
        return s.statement().apply("UPDATE " + table + " SET " + q(ColumnRole.LEASE) + " = " + s.leaseEnd() + " WHERE "
                + key + " = ? AND " + tokenIs());
    }

    /**
     * Returns ends the lease of a row whose batch failed on another row sooner, and takes back the attempt its taking
     * counted (as {@link #release} without an attempts column); parameters seconds, key, token.
     */
    public String giveBack() {
        String attempts = has(ColumnRole.ATTEMPTS)
                ? ", " + q(ColumnRole.ATTEMPTS) + " = " + q(ColumnRole.ATTEMPTS) + " - 1" : "";
        return s.statement().apply("UPDATE " + table + " SET " + q(ColumnRole.LEASE) + " = " + s.leaseEnd() + attempts
                + " WHERE " + key + " = ? AND " + tokenIs());
    }

    /** Returns one more attempt for a row; parameter the key. */
    public String countFailure() {
        return s.statement().apply("UPDATE " + table + " SET " + q(ColumnRole.ATTEMPTS) + " = " + q(ColumnRole.ATTEMPTS)
                + " + 1 WHERE " + key + " = ?");
    }

    /**
     * Returns writes a failed delivery's error to a row's error column, and the database's time to its error time
     * column when it has one; parameters the error, the key.
     */
    public String recordError() {
        return s.statement().apply("UPDATE " + table + " SET " + q(ColumnRole.ERROR) + " = ?"
                + (has(ColumnRole.ERROR_TIME) ? ", " + q(ColumnRole.ERROR_TIME) + " = " + s.now() : "")
                + " WHERE " + key + " = ?");
    }

    /**
     * Returns sets a row aside at once: its attempts at {@code maxAttempts} (a validated whole number); parameter the
     * key; null when nothing can be set aside (no attempts column, or no limit).
     */
    public String setAside() {
        return setAside == null ? null : s.statement().apply("UPDATE " + table + " SET " + q(ColumnRole.ATTEMPTS)
                + " = " + t.definition().maxAttempts() + " WHERE " + key + " = ?");
    }

    /**
     * Returns available, waiting, leased, set aside, oldest available, now, unscheduled (not done, availability NULL:
     * never taken); read with the spelling's read hint.
     */
    public String counts() {
        String done = has(ColumnRole.DONE) ? q(ColumnRole.DONE) + " IS NULL" : s.yes();
        String waiting = !has(ColumnRole.AVAILABLE) ? s.no()
                : done + " AND " + q(ColumnRole.AVAILABLE) + " > " + s.now();
        String leased = !has(ColumnRole.LEASE) ? s.no() : done + " AND " + q(ColumnRole.LEASE) + " > " + s.now();
        String unscheduled = !has(ColumnRole.AVAILABLE) ? s.no()
                : done + " AND " + q(ColumnRole.AVAILABLE) + " IS NULL";
        String oldest = !has(ColumnRole.AVAILABLE) ? "NULL"
                : "MIN(CASE WHEN " + available + " THEN " + q(ColumnRole.AVAILABLE) + " END)";
        return s.statement().apply("SELECT " + count(available) + ", " + count(waiting) + ", " + count(leased) + ", "
                + count(setAside == null ? s.no() : setAside) + ", " + oldest + ", " + s.now() + ", "
                + count(unscheduled) + " FROM " + table
                + s.readHint());
    }

    private static String count(String condition) {
        return "COALESCE(SUM(CASE WHEN " + condition + " THEN 1 ELSE 0 END), 0)";
    }

    /** Returns gives set-aside rows another round (counted), or null when nothing can be set aside. */
    public String redeliverSetAside() {
        return setAside == null ? null : s.counted().apply("UPDATE " + table + " SET " + q(ColumnRole.ATTEMPTS)
                + " = 0" + (has(ColumnRole.LEASE) ? ", " + q(ColumnRole.LEASE) + " = NULL" : ""), setAside);
    }

    /**
     * Returns the key, the error column and the error time column (NULL without them) of the set-aside rows, in key
     * order, read with the spelling's read hint; null when nothing can be set aside.
     */
    public String setAsideRows() {
        return setAside == null ? null : s.statement().apply("SELECT " + key + ", "
                + (has(ColumnRole.ERROR) ? q(ColumnRole.ERROR) : "NULL") + ", "
                + (has(ColumnRole.ERROR_TIME) ? q(ColumnRole.ERROR_TIME) : "NULL") + " FROM " + table + s.readHint()
                + " WHERE " + setAside + " ORDER BY " + key);
    }

    /**
     * Returns gives the set-aside rows of {@code keys} keys another round (counted), or null when nothing can be set
     * aside.
     *
     * @param keys how many keys, each a parameter (1 or more)
     */
    public String redeliverSetAside(int keys) {
        return setAside == null ? null : s.counted().apply("UPDATE " + table + " SET " + q(ColumnRole.ATTEMPTS)
                + " = 0" + (has(ColumnRole.LEASE) ? ", " + q(ColumnRole.LEASE) + " = NULL" : ""), setAside + " AND "
                + key + " IN (?" + ", ?".repeat(keys - 1) + ")");
    }

    /** Returns deletes set-aside rows (counted), or null when nothing can be set aside. */
    public String purgeSetAside() {
        return setAside == null ? null : s.counted().apply("DELETE FROM " + table, setAside);
    }
}
