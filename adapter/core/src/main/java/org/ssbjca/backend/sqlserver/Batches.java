package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.Jdbc;

/**
 * Runs one T-SQL batch of {@link TSql} or {@link TSqlAdmin} with bound parameters and reads every result it returns,
 * so that an error raised by a statement after the batch's SELECT still reaches the caller.
 */
final class Batches {

    /** How much longer than a WAITFOR timeout the driver waits before it cancels the statement. */
    static final int QUERY_TIMEOUT_MARGIN_SECONDS = 5;

    private Batches() {
    }

    /**
     * @param c connection
     * @param sql the batch
     * @param queryTimeoutSeconds the JDBC query timeout, 0 for none
     * @param mapper maps the rows of the first result set
     * @param params the parameters, UUIDs already as strings
     * @param <T> row type
     * @return the rows of the first result set (empty if the batch returned none)
     * @throws SQLException on error, including one raised after the first result set
     */
    static <T> List<T> query(Connection c, String sql, int queryTimeoutSeconds, Jdbc.RowMapper<T> mapper,
            Object... params) throws SQLException {
        return query(c, sql, queryTimeoutSeconds, null, mapper, params);
    }

    /**
     * As {@link #query(Connection, String, int, Jdbc.RowMapper, Object...)}, publishing the running statement so
     * that another thread can cancel a WAITFOR.
     *
     * @param c connection
     * @param sql the batch
     * @param queryTimeoutSeconds the JDBC query timeout, 0 for none
     * @param running publishes the statement while it runs; may be null
     * @param mapper maps the rows of the first result set
     * @param params the parameters, UUIDs already as strings
     * @param <T> row type
     * @return the rows of the first result set (empty if the batch returned none)
     * @throws SQLException on error, including one raised after the first result set; a
     *         {@link CancellableStatement.Cancelled} when {@code running} cancelled the statement
     */
    static <T> List<T> query(Connection c, String sql, int queryTimeoutSeconds, CancellableStatement running,
            Jdbc.RowMapper<T> mapper, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (running == null) {
                return results(ps, queryTimeoutSeconds, mapper, () -> { }, params);
            }
            return running.run(ps, resultBegun -> results(ps, queryTimeoutSeconds, mapper, resultBegun, params));
        }
    }

    private static <T> List<T> results(PreparedStatement ps, int queryTimeoutSeconds, Jdbc.RowMapper<T> mapper,
            Runnable resultBegun, Object... params) throws SQLException {
        if (queryTimeoutSeconds > 0) {
            ps.setQueryTimeout(queryTimeoutSeconds);
        }
        Jdbc.bind(ps, params);
        List<T> rows = null;
        boolean isResultSet = ps.execute();
        resultBegun.run();
        while (true) {
            if (isResultSet) {
                try (ResultSet rs = ps.getResultSet()) {
                    if (rows == null) {
                        rows = new ArrayList<>();
                        while (rs.next()) {
                            rows.add(mapper.map(rs));
                        }
                    }
                }
            } else if (ps.getUpdateCount() == -1) {
                break;
            }
            isResultSet = ps.getMoreResults();
        }
        return rows == null ? List.of() : rows;
    }

    /**
     * Runs a batch whose results do not matter.
     *
     * @param c connection
     * @param sql the batch
     * @param params the parameters
     * @throws SQLException on error
     */
    static void run(Connection c, String sql, Object... params) throws SQLException {
        query(c, sql, 0, rs -> Boolean.TRUE, params);
    }

    /**
     * Returns the non-null values of a batch's variables, in order: a clause left out declares no variable, so it
     * binds nothing.
     *
     * @param values the values of a batch's variables, null for an optional clause left out
     */
    static Object[] params(Object... values) {
        return java.util.Arrays.stream(values).filter(java.util.Objects::nonNull).toArray();
    }

    /**
     * Returns a UUID's text form, as T-SQL converts it to UNIQUEIDENTIFIER; null for null.
     *
     * @param value a UUID or null
     */
    static String text(UUID value) {
        return value == null ? null : value.toString();
    }

    /**
     * @param rs a result set on a row
     * @param column a UNIQUEIDENTIFIER column
     * @return its value, or null
     * @throws SQLException on error
     */
    static UUID uuid(ResultSet rs, String column) throws SQLException {
        String s = rs.getString(column);
        return s == null ? null : UUID.fromString(s.trim());
    }

    /**
     * The WAITFOR timeout of a request: -1 for {@link ReceiveRequest#FOREVER}, else milliseconds, at most
     * {@link Integer#MAX_VALUE}.
     *
     * @param timeout a positive timeout or FOREVER
     * @return the TIMEOUT value
     */
    static int waitForMillis(Duration timeout) {
        if (ReceiveRequest.FOREVER.equals(timeout)) {
            return -1;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    }

    /**
     * Returns a delay as WAITFOR DELAY takes it, 'hh:mm:ss.mss'.
     *
     * @param millis a delay under one hour
     */
    static String delay(long millis) {
        return String.format(java.util.Locale.ROOT, "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60,
                millis / 1000 % 60, millis % 1000);
    }

    /**
     * The JDBC query timeout for a WAITFOR: longer than the WAITFOR itself, or none when it waits without limit.
     *
     * @param waitForMillis the TIMEOUT value
     * @return seconds, 0 for none
     */
    static int queryTimeoutSeconds(int waitForMillis) {
        if (waitForMillis < 0) {
            return 0;
        }
        long seconds = (waitForMillis + 999L) / 1000 + QUERY_TIMEOUT_MARGIN_SECONDS;
        return (int) Math.min(Integer.MAX_VALUE, seconds);
    }
}
