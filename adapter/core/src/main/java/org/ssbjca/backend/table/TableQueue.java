package org.ssbjca.backend.table;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.ssbjca.api.TableRow;

/**
 * A work queue on an application's own table ({@link TableDefinition}), bound to one backend's SQL. Every method works
 * in the caller's transaction on the given connection and never commits. Rows other transactions hold are skipped,
 * never waited for (SKIP LOCKED; READPAST on SQL Server). Rows are taken in priority order (lowest value first), then
 * availability, then the order column (the key by default); rows whose availability lies ahead, rows done, rows
 * leased to another reader and rows set aside (taken {@code maxAttempts} times) are not taken.
 */
public interface TableQueue {

    /** Returns the resolved table this queue works on. */
    TableDefinition.Resolved table();

    /**
     * Transactional mode: takes up to {@code max} rows in the caller's transaction, locked, and removes them (or marks
     * them done); a rollback puts them back.
     *
     * @param c the connection, in the delivery's transaction
     * @param max most rows
     * @param held keys of rows not to take (held back after a failed delivery), as the driver returned them; at most
     *        256
     * @return the rows in taking order; empty when none is available
     * @throws SQLException on a database error
     */
    List<TableRow> take(Connection c, int max, List<Object> held) throws SQLException;

    /**
     * Transactional mode: {@link #take(Connection, int, List)} leaving no row out.
     *
     * @param c the connection, in the delivery's transaction
     * @param max most rows
     * @return the rows in taking order; empty when none is available
     * @throws SQLException on a database error
     */
    default List<TableRow> take(Connection c, int max) throws SQLException {
        return take(c, max, List.of());
    }

    /**
     * Leased mode: leases up to {@code max} rows (lease end, attempts + 1, the taking's mark); the caller commits at
     * once, before the bean runs.
     *
     * @param c the connection, in a transaction of its own
     * @param max most rows
     * @return the rows in taking order, each with its lease token
     * @throws SQLException on a database error
     */
    List<TableRow> lease(Connection c, int max) throws SQLException;

    /**
     * Leased mode: removes (or marks done) a row whose lease is still this taking's.
     *
     * @param c the connection, in the bean's transaction
     * @param row a row {@link #lease} returned
     * @return false when the lease was lost (it ended and another reader took the row)
     * @throws SQLException on a database error
     */
    boolean complete(Connection c, TableRow row) throws SQLException;

    /**
     * Leased mode: a delivery failed; its row may be taken again after {@code retryAfterSeconds} instead of at the
     * end of its lease.
     *
     * @param c the connection, in a transaction of its own
     * @param row a row {@link #lease} returned
     * @param retryAfterSeconds seconds from now
     * @throws SQLException on a database error
     */
    void release(Connection c, TableRow row, int retryAfterSeconds) throws SQLException;

    /**
     * Leased mode: a delivery failed on another row of its batch (the bean threw there); this row's lease ends after
     * {@code retryAfterSeconds}, as {@link #release} does, and its taking is not counted: the attempts column gets back
     * the one {@link #lease} added, so the row is not set aside for its neighbour's failures. Nothing when the lease is
     * no longer this taking's.
     *
     * @param c the connection, in a transaction of its own
     * @param row a row {@link #lease} returned
     * @param retryAfterSeconds seconds from now
     * @throws SQLException on a database error
     */
    void giveBack(Connection c, TableRow row, int retryAfterSeconds) throws SQLException;

    /**
     * Transactional mode: counts one failed taking of each row in the attempts column (after the delivery's rollback
     * released them; nothing without an attempts column).
     *
     * @param c the connection, in a transaction of its own
     * @param rows the rows the failed delivery is charged to: the row on which the bean threw, or every row the bean
     *        was given when the failure cannot be told of one
     * @throws SQLException on a database error
     */
    void countFailures(Connection c, List<TableRow> rows) throws SQLException;

    /**
     * Writes a failed delivery's error to each row's error column, cut to the column
     * ({@link TableDefinition.Resolved#errorText}); nothing without an error column.
     *
     * @param c the connection, in the transaction that counts the failed attempt (or releases the lease)
     * @param rows the rows the failed delivery is charged to
     * @param error the failure, {@code class: message}
     * @throws SQLException on a database error
     */
    void recordErrors(Connection c, List<TableRow> rows, String error) throws SQLException;

    /**
     * Sets rows aside at once (an unrecoverable failure): their attempts column at {@code maxAttempts}, so that no
     * reader takes them again until an operator redelivers them ({@link #redeliverSetAside}); nothing without an
     * attempts column or a limit.
     *
     * @param c the connection, in a transaction of its own
     * @param rows the rows
     * @throws SQLException on a database error
     */
    void setAside(Connection c, List<TableRow> rows) throws SQLException;

    /**
     * Returns the queue's counts, read without locking.
     *
     * @param c a connection
     * @throws SQLException on a database error
     */
    TableCounts counts(Connection c) throws SQLException;

    /**
     * Gives rows set aside (taken {@code maxAttempts} times) another round: attempts back to 0, no lease.
     *
     * @param c a connection, in the caller's transaction
     * @return rows given back
     * @throws SQLException on a database error
     */
    int redeliverSetAside(Connection c) throws SQLException;

    /**
     * Returns the rows set aside with their errors, in key order, read without locking.
     *
     * @param c a connection
     * @param max at most this many rows
     * @return the rows; empty when nothing can be set aside (no attempts column, or no limit)
     * @throws SQLException on a database error
     */
    List<SetAsideRow> setAsideRows(Connection c, int max) throws SQLException;

    /**
     * Gives those of the keys' rows that are set aside another round: attempts back to 0, no lease.
     *
     * @param c a connection, in the caller's transaction
     * @param keys the rows' keys, as {@link #setAsideRows} returned them (at most 1000)
     * @return rows given back
     * @throws SQLException on a database error
     */
    int redeliverSetAside(Connection c, List<Object> keys) throws SQLException;

    /**
     * Deletes the rows set aside.
     *
     * @param c a connection, in the caller's transaction
     * @return rows deleted
     * @throws SQLException on a database error
     */
    int purgeSetAside(Connection c) throws SQLException;
}
